//! [`CallFrame`]: opens a call, or a seed nested in one with settings of its own, and puts the
//! state back when it closes; see the [`call`](super) docs for the rules.

use core::cell::Cell;
use core::marker::PhantomPinned;
use core::pin::Pin;
use core::ptr::{self, NonNull};

use serde::de::Error;

use super::strings::{Input, Strings};
use super::trust::{self, LengthTrust};
use super::{Scope, with};
use crate::limits::{LimitHit, Limits};

/// The part of an open frame the state's chain of frames points to.
pub(crate) struct Link {
    /// The scope of the call this frame is nested in, put back when it closes. A frame further
    /// in, on the same arena as that call, charges the bytes it used to its `bytes_left`.
    saved: Cell<Scope>,
    /// The link of the frame this one is nested in; null for the first frame on the thread.
    prev: Cell<*const Link>,
}

/// Whose budget a frame's allocations come out of.
#[derive(Clone, Copy, Debug)]
enum Holder {
    /// Its own: no call on its arena is open further out, so it owns the arena (it takes a
    /// checkpoint and rewinds on failure).
    Own,
    /// The call it is directly nested in, on the same arena: that call's scope is in this
    /// frame's own `saved`.
    Enclosing,
    /// A call on the same arena further out: its scope is in the `saved` of this link, whose
    /// frame is open for as long as this one is (frames close in reverse order).
    Outer(NonNull<Link>),
}

/// One open call of [`ArenaSeed`](crate::ArenaSeed): pinned on the stack of the seed's
/// `deserialize`, opened with [`open`](Self::open), closed when dropped (also when unwinding).
pub(crate) struct CallFrame<'t> {
    link: Link,
    /// Set by `open` once the frame is in the chain; `Drop` only closes an open frame.
    open: Cell<bool>,
    /// Where the frame's bytes are charged.
    holder: Cell<Holder>,
    /// The byte budget the frame started with (`usize::MAX` when unlimited): what it used is
    /// that minus what is left when it closes.
    budget: Cell<usize>,
    /// The trust the caller carries from call to call, if any; only the first frame uses it.
    trust: Option<&'t LengthTrust>,
    /// Set by [`succeeded`](Self::succeeded): a call that ends otherwise passes no trust on.
    succeeded: Cell<bool>,
    /// The chain holds a pointer to `link`: the frame must not move once open.
    _pinned: PhantomPinned,
}

/// What a seed asks of its call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Identity of the arena ([`BumpAllocator::identity`](crate::BumpAllocator)).
    pub(crate) arena: *const (),
    /// Limits of its own, tightening those in force.
    pub(crate) limits: Option<Limits>,
    /// A string mode of its own.
    pub(crate) str_as_bytes: Option<bool>,
    /// An input of its own ([`Input`]): set by the `from_reader` entry points.
    pub(crate) input: Option<Input>,
    /// Byte strings and maps asked for in either form ([`Strings::either_form`]): set by the
    /// CBOR entry points.
    pub(crate) either_form: Option<bool>,
    /// Bytes of the input it reads from, when it is a slice of known size: set by the format
    /// entry points that read a slice (see [`InputClaim`](super::InputClaim)).
    pub(crate) input_len: Option<usize>,
}

impl Settings {
    /// Whether the seed asks for nothing of its own: only its arena.
    #[inline]
    const fn asks_nothing(&self) -> bool {
        self.limits.is_none()
            && self.str_as_bytes.is_none()
            && self.input.is_none()
            && self.either_form.is_none()
            && self.input_len.is_none()
    }
}

/// Whether `scope` is [`Scope::IDLE`].
fn is_idle(scope: Scope) -> bool {
    let idle = Scope::IDLE;
    scope.arena.is_null()
        && (
            scope.limits,
            scope.max_depth,
            scope.bytes_left,
            scope.strings,
            scope.input_claims,
        ) == (
            idle.limits,
            idle.max_depth,
            idle.bytes_left,
            idle.strings,
            idle.input_claims,
        )
}

impl<'t> CallFrame<'t> {
    /// A frame not open yet; `trust` is what the call starts with if it is the first on the
    /// thread.
    #[inline]
    pub(crate) const fn new(trust: Option<&'t LengthTrust>) -> Self {
        Self {
            link: Link {
                saved: Cell::new(Scope::IDLE),
                prev: Cell::new(ptr::null()),
            },
            open: Cell::new(false),
            holder: Cell::new(Holder::Own),
            budget: Cell::new(usize::MAX),
            trust,
            succeeded: Cell::new(false),
            _pinned: PhantomPinned,
        }
    }

    /// Opens the call: saves the scope in force, puts the call's in force and enters its level.
    /// Returns whether the call owns its arena (no call on it is open further out), and so
    /// must rewind it on failure.
    ///
    /// # Errors
    ///
    /// The nesting depth limit, when the call's own level is past it; nothing changed then.
    #[inline]
    pub(crate) fn open<E: Error>(self: Pin<&Self>, settings: Settings) -> Result<bool, E> {
        if self.trust.is_none() && settings.asks_nothing() && self.open_first(settings.arena) {
            return Ok(true);
        }
        self.open_nested(settings)
    }

    /// Opens the call as [`open`](Self::open) does when it is the first on the thread and
    /// asks for nothing of its own, in one thread-local access: the state of a top-level read
    /// with [`ArenaSeed::new`](crate::ArenaSeed::new), once per document of a stream. With no
    /// frame open, the scope in force is the idle one (each frame puts back what it saved, the
    /// first one the idle scope), which is also what a first frame saves; the call's scope
    /// differs from it only in its arena and its depth bound (the depth it opens at, plus the
    /// default limit). The trust starts at the floor, as [`trust::start`] starts it without
    /// a carried trust. Returns `false`, with nothing changed, when a frame is open or the
    /// call's level would pass the depth bound: [`open_nested`](Self::open_nested) decides.
    #[inline]
    fn open_first(self: Pin<&Self>, arena: *const ()) -> bool {
        let this = self.get_ref();
        debug_assert!(!this.open.get(), "a frame opens once");
        with(|cx| {
            if !cx.frame.get().is_null() {
                return false;
            }
            let depth = cx.depth.get();
            let max_depth = depth.saturating_add(Limits::DEFAULT.depth_limit());
            if depth >= max_depth {
                return false;
            }
            debug_assert!(
                is_idle(cx.scope()),
                "no frame is open, yet the scope in force is not the idle one"
            );
            // `new` left the link saving the idle scope, with no frame before it, and the
            // holder and budget of a call that owns its arena with no byte limit.
            cx.frame.set(&raw const this.link);
            cx.arena.set(arena);
            cx.max_depth.set(max_depth);
            cx.depth.set(depth + 1);
            cx.trust.set(trust::FLOOR);
            this.open.set(true);
            true
        })
    }

    /// [`open`](Self::open) for every call but the first on the thread with no settings.
    #[cold]
    fn open_nested<E: Error>(self: Pin<&Self>, settings: Settings) -> Result<bool, E> {
        let this = self.get_ref();
        debug_assert!(!this.open.get(), "a frame opens once");
        let holder = with(|cx| {
            let outer = cx.scope();
            let first = cx.frame.get().is_null();
            let depth = cx.depth.get();
            let (limits, max_depth) = in_force(settings.limits, outer, first, depth);
            if depth >= max_depth {
                return Err(LimitHit::Depth(limits.depth_limit()).into_de());
            }
            let holder = if first {
                Holder::Own
            } else if outer.arena == settings.arena {
                Holder::Enclosing
            } else {
                find_outer(cx.frame.get(), settings.arena).map_or(Holder::Own, Holder::Outer)
            };
            let holder_left = match holder {
                Holder::Own => usize::MAX,
                Holder::Enclosing => outer.bytes_left,
                // SAFETY: the chain only holds links of open frames (see `Drop`).
                Holder::Outer(link) => unsafe { link.as_ref() }.saved.get().bytes_left,
            };
            let budget = holder_left.min(limits.bytes_limit().unwrap_or(usize::MAX));
            this.link.saved.set(outer);
            this.link.prev.set(cx.frame.get());
            cx.frame.set(&raw const this.link);
            cx.set_scope(Scope {
                arena: settings.arena,
                limits,
                max_depth,
                bytes_left: budget,
                strings: Strings {
                    as_bytes: settings.str_as_bytes.unwrap_or(outer.strings.as_bytes),
                    input: settings.input.unwrap_or(outer.strings.input),
                    either_form: settings.either_form.unwrap_or(outer.strings.either_form),
                },
                input_claims: settings.input_len.unwrap_or(outer.input_claims),
            });
            cx.depth.set(depth + 1);
            this.holder.set(holder);
            this.budget.set(budget);
            this.open.set(true);
            Ok(holder)
        })?;
        if this.is_first() {
            trust::start(this.trust);
        }
        Ok(matches!(holder, Holder::Own))
    }

    /// Whether no frame was open on the thread when this one opened: the frame then owns the
    /// trust (see [`trust`]).
    fn is_first(&self) -> bool {
        self.link.prev.get().is_null()
    }

    /// The call succeeded: its trust may be carried on.
    #[inline]
    pub(crate) fn succeeded(self: Pin<&Self>) {
        self.succeeded.set(true);
    }
}

/// The limits in force for a call with limits `own` opened at `depth` inside `outer` (the
/// idle scope when it is the `first` call on the thread), and the depth it may reach.
fn in_force(own: Option<Limits>, outer: Scope, first: bool, depth: usize) -> (Limits, usize) {
    if first {
        let own = own.unwrap_or(Limits::DEFAULT);
        return (own, depth.saturating_add(own.depth_limit()));
    }
    let Some(own) = own else {
        return (outer.limits, outer.max_depth);
    };
    let both = own.intersect(outer.limits);
    // The depth counts from where the call opens; the tighter of the two bounds is in force,
    // and its own limit is what errors name.
    let mine = depth.saturating_add(own.depth_limit());
    if mine < outer.max_depth {
        (both.max_depth(own.depth_limit()), mine)
    } else {
        (both.max_depth(outer.limits.depth_limit()), outer.max_depth)
    }
}

/// The link whose saved scope is the innermost call on `arena` among the frames from `link`
/// outwards.
fn find_outer(mut link: *const Link, arena: *const ()) -> Option<NonNull<Link>> {
    while let Some(found) = NonNull::new(link.cast_mut()) {
        // SAFETY: the chain only holds links of open frames (see `Drop`).
        let l = unsafe { found.as_ref() };
        if l.saved.get().arena == arena {
            return Some(found);
        }
        link = l.prev.get();
    }
    None
}

/// `left` after spending `used` bytes; unlimited stays unlimited.
fn spend(left: usize, used: usize) -> usize {
    if left == usize::MAX {
        left
    } else {
        left.saturating_sub(used)
    }
}

impl Drop for CallFrame<'_> {
    /// Closes the call: charges what it used to its holder, puts the saved scope back, leaves
    /// its level and unlinks it. A frame is pinned from `open` until here, and frames close in
    /// reverse order (each lives in one `deserialize` call, and the ones nested in it are
    /// dropped before it returns, also when unwinding), so every link in the chain is an open
    /// frame's, alive and unmoved.
    fn drop(&mut self) {
        if !self.open.get() {
            return;
        }
        let first = self.is_first();
        let trust = with(|cx| {
            debug_assert!(
                ptr::eq(cx.frame.get(), &raw const self.link),
                "call frames closed out of order"
            );
            cx.depth.set(cx.depth.get() - 1);
            cx.frame.set(self.link.prev.get());
            if first {
                // The first frame saved the idle scope (no frame was open) and owns its arena:
                // nothing to charge, and the thread's trust goes back to the floor.
                debug_assert!(
                    is_idle(self.link.saved.get()),
                    "the first frame saved a scope that is not the idle one"
                );
                cx.set_scope(Scope::IDLE);
                return Some(cx.trust.replace(trust::FLOOR));
            }
            let budget = self.budget.get();
            let used = if budget == usize::MAX {
                0
            } else {
                budget.saturating_sub(cx.bytes_left.get())
            };
            let mut saved = self.link.saved.get();
            match self.holder.get() {
                Holder::Own => {}
                Holder::Enclosing => saved.bytes_left = spend(saved.bytes_left, used),
                Holder::Outer(link) => {
                    // SAFETY: the holder's frame is further out in the chain, so still open.
                    let outer = unsafe { link.as_ref() };
                    let mut scope = outer.saved.get();
                    scope.bytes_left = spend(scope.bytes_left, used);
                    outer.saved.set(scope);
                }
            }
            cx.set_scope(saved);
            None
        });
        if let Some(bytes) = trust {
            trust::finish(self.trust, self.succeeded.get(), bytes);
        }
    }
}
