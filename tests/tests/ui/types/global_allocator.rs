use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S<'bump> {
    string: String,
    vec: Vec<u8>,
    boxed: Box<u8>,
    map: HashMap<u8, u8>,
    btree: BTreeMap<u8, u8>,
    set: HashSet<u8>,
    btree_set: BTreeSet<u8>,
    deque: VecDeque<u8>,
    rc: Rc<u8>,
    arc: Arc<u8>,
    cow: Cow<'bump, str>,
}

fn main() {}
