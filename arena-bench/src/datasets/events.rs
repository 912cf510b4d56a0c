//! The event streams: a synthetic log of web events whose model uses serde's buffered
//! representations, in two datasets of the same events.
//!
//! Each event is an internally tagged enum (`#[serde(tag = "type")]`) with struct variants, a
//! flattened common header (`#[serde(flatten)]`), an untagged string-or-number field
//! (`#[serde(untagged)]`) and, on purchases, an adjacently tagged payment
//! (`#[serde(tag = "kind", content = "data")]`). serde_derive buffers every internally tagged
//! map whatever its order (`TaggedContentVisitor` collects the entries while it looks for the
//! tag), where `#[derive(ArenaDeserialize)]` reads the rest of the map straight from the input
//! into the variant when the tag is the map's first key, and otherwise buffers the map (in an
//! `arena_core::Value`, in the arena) and replays it. So:
//!
//! - [`Events`] (`events`): the documents as serde writes them, each event's `type` first;
//! - [`EventsTagLast`] (`events-tag-last`): the same events with each event's `type` entry
//!   moved to the end of its map ([`write_tag_last`]), which makes every reader buffer the
//!   whole event before it knows the variant.
//!
//! Both read into the same model and so the same digest. Only self-describing formats carry
//! them (serde reads these representations with `deserialize_any`): JSON, MessagePack and CBOR.
//! multitude's derive refuses them at compile time, so the multitude strategies are not
//! measured ([`SKIPPED_FORMAT`], [`SKIPPED_MULTITUDE`]).

use arena_core::{ArenaSeed, Value};

use super::Dataset;
use super::splitmix::SplitMix;
use crate::format::{Cbor, Format, FormatId, Json, MsgPack};
use crate::model::NoModel;

crate::model! {
    [owned borrowed arena]

    /// A stream of events from one source: one document.
    struct Events {
        source: str,
        events: [Event],
    }

    /// What every event carries, flattened into the event's own map.
    struct Header {
        id: u64,
        ts: u64,
        user: str,
        session: str,
    }

    /// One event; its kind is the `type` entry of its map.
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Event {
        PageView {
            #[serde(flatten)]
            header: Header,
            url: str,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            referrer: (opt str),
            duration_ms: u32,
        },
        Click {
            #[serde(flatten)]
            header: Header,
            target: StrOrNum,
            x: u32,
            y: u32,
        },
        Search {
            #[serde(flatten)]
            header: Header,
            query: str,
            filters: [str],
            results: u32,
        },
        Purchase {
            #[serde(flatten)]
            header: Header,
            items: [Item],
            total_cents: u64,
            currency: str,
            payment: Payment,
        },
        ClientError {
            #[serde(flatten)]
            header: Header,
            code: StrOrNum,
            message: str,
        },
    }

    /// An element id (a number) or a selector, an HTTP status or an error name.
    #[serde(untagged)]
    enum StrOrNum {
        Num(u64),
        Str(str),
    }

    /// A line of a purchase.
    struct Item {
        sku: str,
        quantity: u32,
        price_cents: u64,
    }

    /// How a purchase was paid: `{"kind": ..., "data": ...}`.
    #[serde(tag = "kind", content = "data", rename_all = "snake_case")]
    enum Payment {
        Card { network: str, last4: str },
        Wallet { provider: str, account: str },
        Voucher(str),
        Invoice,
    }
}

/// The `events` dataset: each event's tag first, as serde writes it.
#[derive(Debug)]
pub struct Events;

impl Dataset for Events {
    const NAME: &'static str = "events";
    type Owned = owned::Events;
    type Borrowed<'a> = borrowed::Events<'a>;
    type Arena<'a> = arena::Events<'a>;
    type Multi = NoModel;
}

/// The `events-tag-last` dataset: the same events, each event's tag last in its map.
#[derive(Debug)]
pub struct EventsTagLast;

impl Dataset for EventsTagLast {
    const NAME: &'static str = "events-tag-last";
    type Owned = owned::Events;
    type Borrowed<'a> = borrowed::Events<'a>;
    type Arena<'a> = arena::Events<'a>;
    type Multi = NoModel;
}

/// Why the event streams have no postcard or bincode documents.
pub const SKIPPED_FORMAT: &str = "postcard and bincode are not self-describing, and serde reads \
    internally tagged, untagged and flattened data through deserialize_any";

/// Why the multitude strategies are not measured on the event streams.
pub const SKIPPED_MULTITUDE: &str = "multitude's #[derive(DeserializeIn)] refuses serde's tag, \
    content and untagged enums and flatten at compile time";

/// The key of an event's tag.
pub const TAG: &str = "type";

/// Average MessagePack bytes per event, measured on generated streams: turns a `--size` into a
/// number of events. The real sizes are reported per format.
///
/// Measured (MessagePack length / events): see the test below, which keeps `generate(n)`
/// within 5% of `n`.
pub const MSGPACK_BYTES_PER_EVENT: usize = 171;

const USERS: u64 = 4_000;
const HOSTS: [&str; 2] = ["https://shop.example.com", "https://m.shop.example.com"];
const SECTIONS: [&str; 8] = [
    "garden", "kitchen", "tools", "books", "toys", "outdoor", "lighting", "bath",
];
const WORDS: [&str; 16] = [
    "shears", "kettle", "lamp", "hose", "drill", "novel", "puzzle", "tent", "towel", "chair",
    "rake", "mug", "bulb", "saw", "kite", "mat",
];
const REFERRERS: [&str; 4] = [
    "https://www.search.example/",
    "https://news.example.org/deals",
    "https://social.example.net/feed",
    "https://mail.example.com/newsletter",
];
const SELECTORS: [&str; 6] = [
    "button#add-to-cart",
    "a.nav-link[data-section]",
    "div.carousel > button.next",
    "input#search",
    "button.checkout-primary",
    "img.product-thumbnail",
];
const FILTERS: [&str; 6] = [
    "in_stock:true",
    "price<50",
    "rating>=4",
    "brand:acme",
    "color:green",
    "ships:express",
];
const CURRENCIES: [&str; 3] = ["EUR", "USD", "GBP"];
const NETWORKS: [&str; 3] = ["visa", "mastercard", "amex"];
const WALLETS: [&str; 2] = ["applepay", "googlepay"];
const ERROR_NAMES: [&str; 3] = ["E_TIMEOUT", "E_OFFLINE", "E_QUOTA"];
/// Error messages; some with quotes and newlines, which JSON writes escaped.
const MESSAGES: [&str; 5] = [
    "Timeout after 3000 ms loading \"/api/cart\"",
    "TypeError: cart.items is undefined\n    at checkout.js:112:7\n    at render (app.js:88:3)",
    "Unexpected token < in JSON at position 0",
    "Failed to fetch",
    "Quota exceeded for key \"recently_viewed\"",
];

/// A 128-bit id written as a UUID (36 characters).
fn uuid(rng: &mut SplitMix) -> String {
    let (a, b) = (rng.next(), rng.next());
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

fn pick_index(rng: &mut SplitMix, n: usize) -> usize {
    usize::try_from(rng.below(n as u64)).unwrap_or(0)
}

fn small(rng: &mut SplitMix, n: u64) -> u32 {
    u32::try_from(rng.below(n)).unwrap_or(0)
}

fn product(rng: &mut SplitMix) -> (String, u64) {
    let section = rng.pick(&SECTIONS);
    let word = rng.pick(&WORDS);
    let number = 1_000 + rng.below(90_000);
    (format!("{section}/{word}-{number}"), number)
}

fn event(rng: &mut SplitMix, header: owned::Header) -> owned::Event {
    match rng.below(100) {
        // Most events are page views and clicks.
        0..40 => {
            let (path, _) = product(rng);
            owned::Event::PageView {
                header,
                url: format!("{}/{path}?ref=home", rng.pick(&HOSTS)),
                referrer: (rng.below(2) == 0).then(|| rng.pick(&REFERRERS).to_owned()),
                duration_ms: small(rng, 120_000),
            }
        }
        40..70 => owned::Event::Click {
            header,
            // Element ids as numbers from one part of the site, selectors from the other.
            target: if rng.below(3) == 0 {
                owned::StrOrNum::Num(rng.below(10_000))
            } else {
                owned::StrOrNum::Str(rng.pick(&SELECTORS).to_owned())
            },
            x: small(rng, 1_920),
            y: small(rng, 1_080),
        },
        70..82 => {
            let words = 1 + rng.below(3);
            let query = (0..words)
                .map(|_| rng.pick(&WORDS))
                .collect::<Vec<_>>()
                .join(" ");
            owned::Event::Search {
                header,
                query,
                filters: (0..rng.below(3))
                    .map(|_| rng.pick(&FILTERS).to_owned())
                    .collect(),
                results: small(rng, 500),
            }
        }
        82..90 => {
            let items: Vec<owned::Item> = (0..1 + rng.below(4))
                .map(|_| {
                    let (path, number) = product(rng);
                    owned::Item {
                        sku: path.replace('/', "-").to_ascii_uppercase(),
                        quantity: 1 + small(rng, 3),
                        price_cents: 199 + number % 20_000,
                    }
                })
                .collect();
            let total_cents = items
                .iter()
                .map(|i| u64::from(i.quantity) * i.price_cents)
                .sum();
            let payment = match rng.below(10) {
                0..6 => owned::Payment::Card {
                    network: rng.pick(&NETWORKS).to_owned(),
                    last4: format!("{:04}", rng.below(10_000)),
                },
                6..8 => owned::Payment::Wallet {
                    provider: rng.pick(&WALLETS).to_owned(),
                    account: format!("acct_{:016x}", rng.next()),
                },
                8 => owned::Payment::Voucher(format!("GIFT-{:08X}", rng.next() >> 32)),
                _ => owned::Payment::Invoice,
            };
            owned::Event::Purchase {
                header,
                items,
                total_cents,
                currency: rng.pick(&CURRENCIES).to_owned(),
                payment,
            }
        }
        _ => owned::Event::ClientError {
            header,
            // HTTP statuses as numbers, client-side failures by name.
            code: if rng.below(2) == 0 {
                owned::StrOrNum::Num(400 + rng.below(104))
            } else {
                owned::StrOrNum::Str(rng.pick(&ERROR_NAMES).to_owned())
            },
            message: MESSAGES[pick_index(rng, MESSAGES.len())].to_owned(),
        },
    }
}

/// A deterministic stream of about `msgpack_bytes` bytes in MessagePack (at least one event).
///
/// The events come from one seed in one sequence, so a smaller stream is the start of a
/// larger one.
#[must_use]
pub fn generate(msgpack_bytes: usize) -> owned::Events {
    let count = (msgpack_bytes / MSGPACK_BYTES_PER_EVENT).max(1);
    let mut rng = SplitMix(0x00E7_E175_EED0_0001);
    // Each user keeps one session, so users and sessions repeat through the stream, as in a
    // real log.
    let sessions: Vec<String> = (0..USERS).map(|_| uuid(&mut rng)).collect();
    // Milliseconds since the epoch: 2024-11-19, then a few hundred ms between events.
    let mut ts = 1_732_000_000_000;
    let events = (0..count as u64)
        .map(|i| {
            ts += rng.below(800);
            let user = pick_index(&mut rng, sessions.len());
            let header = owned::Header {
                id: 9_000_000 + i,
                ts,
                user: format!("u_{:06}", 100_000 + user),
                session: sessions[user].clone(),
            };
            event(&mut rng, header)
        })
        .collect();
    owned::Events {
        source: "web-frontend/eu-west-1".to_owned(),
        events,
    }
}

/// `events` in `format` with every event's tag entry ([`TAG`]) moved to the end of its map,
/// every other entry kept in its place.
///
/// The document serde writes is read into an `arena_core::Value` (which keeps every map's
/// entries in input order), reordered, and written back in the same format.
///
/// # Errors
///
/// For a format other than JSON (either parser's), MessagePack and CBOR, or the format's error.
pub fn write_tag_last(format: FormatId, events: &owned::Events) -> Result<Vec<u8>, String> {
    let tag_first = format.encode(events)?;
    let arena = bumpalo::Bump::new();
    let seed = ArenaSeed::<Value<'_>, _>::new(&arena);
    let document = match format {
        FormatId::Json | FormatId::JsonSerde | FormatId::JsonSonic => {
            Json::decode_seed(&tag_first, seed)?
        }
        FormatId::MsgPack => MsgPack::decode_seed(&tag_first, seed)?,
        FormatId::Cbor => Cbor::decode_seed(&tag_first, seed)?,
        FormatId::Postcard | FormatId::Bincode => return Err(SKIPPED_FORMAT.to_owned()),
    };
    format.encode(&move_tags_last(&arena, document)?)
}

/// The document with each event's [`TAG`] entry last.
fn move_tags_last<'a>(arena: &'a bumpalo::Bump, document: Value<'a>) -> Result<Value<'a>, String> {
    let no_memory = |e: arena_core::AllocError| e.to_string();
    let entries = document.as_map().ok_or("a document is a map")?;
    let entries = entries.iter().map(|&(key, value)| {
        if key != "events" {
            return Ok((key, value));
        }
        let events = value.as_array().ok_or("`events` is an array")?;
        let moved = events.iter().map(|event| {
            let fields = event.as_map().ok_or("an event is a map")?;
            let (tag, rest): (Vec<_>, Vec<_>) = fields.iter().partition(|(k, _)| *k == TAG);
            Value::try_map(arena, rest.into_iter().chain(tag)).map_err(no_memory)
        });
        let moved = moved.collect::<Result<Vec<_>, String>>()?;
        Ok((key, Value::try_array(arena, moved).map_err(no_memory)?))
    });
    let entries = entries.collect::<Result<Vec<_>, String>>()?;
    Value::try_map(arena, entries).map_err(no_memory)
}

#[cfg(test)]
mod tests {
    use core::marker::PhantomData;

    use super::{Events, EventsTagLast, TAG, arena, generate, owned, write_tag_last};
    use crate::datasets::Dataset;
    use crate::format::{Cbor, Format, FormatId, Json, MsgPack};
    use crate::model::digest_of;
    use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, Value};

    /// The formats the event streams are written in.
    const FORMATS: [FormatId; 3] = [FormatId::Json, FormatId::MsgPack, FormatId::Cbor];

    /// Reads `bytes` (in `format`) with `seed`.
    fn decode<'de, S: serde::de::DeserializeSeed<'de>>(
        format: FormatId,
        bytes: &'de [u8],
        seed: S,
    ) -> S::Value {
        match format {
            FormatId::Json => Json::decode_seed(bytes, seed),
            FormatId::MsgPack => MsgPack::decode_seed(bytes, seed),
            FormatId::Cbor => Cbor::decode_seed(bytes, seed),
            other => panic!("no events in {}", other.name()),
        }
        .unwrap_or_else(|e| panic!("{}: {e}", format.name()))
    }

    /// Each event's map of `bytes`, in input order: its keys, and its values as JSON text.
    fn event_maps(format: FormatId, bytes: &[u8]) -> Vec<Vec<(String, String)>> {
        let arena = bumpalo::Bump::new();
        let document: Value<'_> = decode(format, bytes, ArenaSeed::new(&arena));
        document["events"]
            .as_array()
            .expect("an array of events")
            .iter()
            .map(|event| {
                let map = event.as_map().expect("an event is a map");
                map.iter()
                    .map(|(k, v)| (k.as_str().expect("a string key").to_owned(), v.to_string()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn generate_lands_within_5_percent_of_the_requested_msgpack_size() {
        for requested in [200_000, 2_000_000] {
            let bytes = MsgPack::encode(&generate(requested))
                .expect("a stream encodes")
                .len();
            let ratio = bytes as f64 / requested as f64;
            assert!(
                (0.95..=1.05).contains(&ratio),
                "generate({requested}) is {bytes} bytes of MessagePack ({ratio:.3}x)"
            );
        }
    }

    #[test]
    fn the_generator_is_deterministic_and_a_small_stream_starts_a_large_one() {
        let (small, large) = (generate(20_000), generate(60_000));
        assert_eq!(generate(20_000), small);
        assert_eq!(Json::encode(&generate(60_000)), Json::encode(&large));
        assert!(large.events.len() > small.events.len());
        assert_eq!(large.events[..small.events.len()], small.events[..]);
        // Every variant and every representation is in the mix.
        let json = String::from_utf8(Json::encode(&large).unwrap()).unwrap();
        for needle in [
            r#"{"type":"page_view""#,
            r#"{"type":"click""#,
            r#"{"type":"search""#,
            r#"{"type":"purchase""#,
            r#"{"type":"client_error""#,
            r#""target":"button"#,
            r#""target":1"#,
            r#""kind":"card","data":{"#,
            r#""kind":"voucher","data":"GIFT-"#,
            r#"{"kind":"invoice"}"#,
            r#"\"/api/cart\""#,
            r#"\n    at"#,
        ] {
            assert!(json.contains(needle), "no {needle} in the stream");
        }
    }

    #[test]
    fn the_tag_last_documents_have_every_tag_last_and_nothing_else_moved() {
        let events = generate(50_000);
        for format in FORMATS {
            let first = event_maps(format, &format.encode(&events).unwrap());
            let last = event_maps(format, &write_tag_last(format, &events).unwrap());
            assert_eq!(first.len(), events.events.len());
            assert_eq!(first.len(), last.len());
            for (mut first, last) in first.into_iter().zip(last) {
                assert_eq!(
                    first[0].0,
                    TAG,
                    "{}: serde writes the tag first",
                    format.name()
                );
                assert_eq!(last.last().unwrap().0, TAG, "{}", format.name());
                let tag = first.remove(0);
                first.push(tag);
                assert_eq!(first, last, "{}: only the tag moves", format.name());
            }
        }
    }

    #[test]
    fn owned_and_borrowed_read_both_documents_to_the_same_digest() {
        let events = generate(50_000);
        let expected = digest_of(&events);
        for format in FORMATS {
            for bytes in [
                format.encode(&events).unwrap(),
                write_tag_last(format, &events).unwrap(),
            ] {
                let owned: owned::Events = decode(format, &bytes, PhantomData);
                assert_eq!(owned, events, "{}", format.name());
                let borrowed: <Events as Dataset>::Borrowed<'_> =
                    decode(format, &bytes, PhantomData);
                assert_eq!(digest_of(&borrowed), expected, "{}", format.name());
                let borrowed: <EventsTagLast as Dataset>::Borrowed<'_> =
                    decode(format, &bytes, PhantomData);
                assert_eq!(digest_of(&borrowed), expected, "{}", format.name());
            }
        }
    }

    /// The digest of `bytes` (in `format`) read into the arena model in a new `A`.
    fn arena_digest<A: BumpAllocator + Default>(format: FormatId, bytes: &[u8]) -> u64
    where
        for<'a> arena::Events<'a>: ArenaDeserialize<'a, A>,
    {
        let arena = A::default();
        let events: arena::Events<'_> = decode(format, bytes, ArenaSeed::new(&arena));
        digest_of(&events)
    }

    #[test]
    fn the_arena_model_reads_both_documents_to_the_owned_digest_in_every_arena() {
        let events = generate(50_000);
        let expected = digest_of(&events);
        for format in FORMATS {
            for bytes in [
                format.encode(&events).unwrap(),
                write_tag_last(format, &events).unwrap(),
            ] {
                let name = format.name();
                assert_eq!(
                    arena_digest::<bumpalo::Bump>(format, &bytes),
                    expected,
                    "{name}"
                );
                assert_eq!(
                    arena_digest::<bump_scope::Bump>(format, &bytes),
                    expected,
                    "{name}"
                );
                let slab = arena_digest::<arena_core::SlabArena>(format, &bytes);
                assert_eq!(slab, expected, "{name}");
            }
        }
    }
}
