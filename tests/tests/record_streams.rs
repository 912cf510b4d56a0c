//! `postcard::SliceStream`, `msgpack::SliceStream` and `cbor::SliceStream`: files of concatenated records read
//! record by record, each as the format's `from_bytes`/`from_slice` reads it alone; the end,
//! a truncated last record, garbage between records, limits and rewind per record.

use arena_core::{
    ArenaSeed, BumpAllocator, DocumentStream, Limits, RecordFormat, RecordStream, SlabArena,
};
use serde::Serialize;

/// One record of the files.
#[derive(Serialize)]
struct Row {
    id: u64,
    name: String,
    tags: Vec<String>,
}

fn rows() -> Vec<Row> {
    (0..50)
        .map(|i| Row {
            id: i,
            name: format!("row {i}"),
            tags: (0..i % 4).map(|t| format!("t{t}")).collect(),
        })
        .collect()
}

/// The arena's view of [`Row`].
type ArenaRow<'a> = (u64, &'a str, &'a [&'a str]);

/// The records of `file` (each `encode`d from [`rows`]) read through `stream`, one arena reset
/// per record, then the end, twice.
fn check<S, E>(mut stream: S, lens: &[usize])
where
    S: DocumentStream<Error = E>,
    E: std::fmt::Debug,
{
    let expected = rows();
    let mut arena = SlabArena::new();
    let mut read = 0;
    while let Some(row) = stream.next_in::<ArenaRow<'_>, _>(&arena) {
        let (id, name, tags) = row.unwrap();
        let want = &expected[read];
        assert_eq!(
            (id, name, tags.len()),
            (want.id, want.name.as_str(), want.tags.len())
        );
        read += 1;
        arena.reset();
    }
    assert_eq!(read, lens.len());
    assert!(stream.next_in::<ArenaRow<'_>, _>(&arena).is_none());
}

/// The records of [`rows`] written one after another with `encode`, and each one's length.
fn file(encode: impl Fn(&Row) -> Vec<u8>) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = Vec::new();
    let mut lens = Vec::new();
    for row in rows() {
        let one = encode(&row);
        lens.push(one.len());
        bytes.extend(one);
    }
    (bytes, lens)
}

fn postcard_row(row: &Row) -> Vec<u8> {
    postcard::to_allocvec(row).unwrap()
}

fn msgpack_row(row: &Row) -> Vec<u8> {
    rmp_serde::to_vec(row).unwrap()
}

fn cbor_row(row: &Row) -> Vec<u8> {
    // A tuple, as the arena's view reads it (a struct is a CBOR map).
    cbor4ii::serde::to_vec(Vec::new(), &(row.id, &row.name, &row.tags)).unwrap()
}

/// Checks that `stream`'s offset after each record is that record's end.
fn offsets<F: RecordFormat>(mut stream: RecordStream<'_, F>, lens: &[usize])
where
    F::Error: std::fmt::Debug,
{
    let arena = SlabArena::new();
    let mut end = 0;
    for len in lens {
        stream.next_in::<ArenaRow<'_>, _>(&arena).unwrap().unwrap();
        end += len;
        assert_eq!(stream.byte_offset(), end);
    }
}

#[test]
fn every_record_reads_as_alone() {
    let (bytes, lens) = file(postcard_row);
    check(arena_core::postcard::SliceStream::new(&bytes), &lens);
    offsets(arena_core::postcard::SliceStream::new(&bytes), &lens);
    let (bytes, lens) = file(msgpack_row);
    check(arena_core::msgpack::SliceStream::new(&bytes), &lens);
    offsets(arena_core::msgpack::SliceStream::new(&bytes), &lens);
    let (bytes, lens) = file(cbor_row);
    check(arena_core::cbor::SliceStream::new(&bytes), &lens);
    offsets(arena_core::cbor::SliceStream::new(&bytes), &lens);
}

#[test]
fn an_empty_input_has_no_record() {
    let arena = SlabArena::new();
    assert!(
        arena_core::postcard::SliceStream::new(&[])
            .next_in::<u8, _>(&arena)
            .is_none()
    );
    assert!(
        arena_core::msgpack::SliceStream::new(&[])
            .next_in::<u8, _>(&arena)
            .is_none()
    );
}

#[test]
fn a_truncated_last_record_is_an_error_that_ends_the_stream() {
    let arena = SlabArena::new();
    let (bytes, lens) = file(postcard_row);
    let cut = &bytes[..bytes.len() - 2];
    let mut stream = arena_core::postcard::SliceStream::new(cut);
    let mut oks = 0;
    let err = loop {
        match stream.next_in::<ArenaRow<'_>, _>(&arena).unwrap() {
            Ok(_) => oks += 1,
            Err(err) => break err,
        }
    };
    assert_eq!(oks, lens.len() - 1);
    assert_eq!(err, postcard::Error::DeserializeUnexpectedEnd);
    assert!(stream.next_in::<ArenaRow<'_>, _>(&arena).is_none());
    let (bytes, lens) = file(msgpack_row);
    let stream = arena_core::msgpack::SliceStream::new(&bytes[..bytes.len() - 1]);
    let err = fails_after(stream, lens.len() - 1);
    let theirs = rmp_serde::from_slice::<(u64, String, Vec<String>)>(
        &bytes[bytes.len() - lens[lens.len() - 1]..bytes.len() - 1],
    )
    .unwrap_err();
    assert_eq!(err.to_string(), theirs.to_string());
}

#[test]
fn garbage_between_records_ends_the_stream_with_the_formats_error() {
    let arena = SlabArena::new();
    // 0xc1 is no MessagePack marker.
    let mut bytes = msgpack_row(&rows()[1]);
    let first = bytes.len();
    bytes.push(0xc1);
    bytes.extend(msgpack_row(&rows()[2]));
    let mut stream = arena_core::msgpack::SliceStream::new(&bytes);
    assert!(stream.next_in::<ArenaRow<'_>, _>(&arena).unwrap().is_ok());
    let err = stream
        .next_in::<ArenaRow<'_>, _>(&arena)
        .unwrap()
        .unwrap_err();
    let theirs = rmp_serde::from_slice::<(u64, String, Vec<String>)>(&bytes[first..]).unwrap_err();
    assert_eq!(err.to_string(), theirs.to_string());
    assert_eq!(stream.byte_offset(), first);
    assert!(stream.next_in::<ArenaRow<'_>, _>(&arena).is_none());
}

#[test]
fn limits_apply_per_record_and_a_failed_record_rewinds() {
    let rows = rows();
    // Records of 2, 2, 3 and 1 tags, under a limit of 2 elements per record.
    let pick = [&rows[2], &rows[2], &rows[3], &rows[1]];
    let postcard: Vec<u8> = pick.iter().flat_map(|r| postcard_row(r)).collect();
    let msgpack: Vec<u8> = pick.iter().flat_map(|r| msgpack_row(r)).collect();
    let cbor: Vec<u8> = pick.iter().flat_map(|r| cbor_row(r)).collect();
    fn run<S: DocumentStream>(stream: &mut S, message: &str)
    where
        S::Error: std::fmt::Display,
    {
        let arena = SlabArena::new();
        let seed =
            ArenaSeed::<ArenaRow<'_>, _>::new(&arena).with_limits(Limits::default().max_len(2));
        assert_eq!(stream.next_seed(seed).unwrap().ok().unwrap().2.len(), 2);
        assert_eq!(stream.next_seed(seed).unwrap().ok().unwrap().2.len(), 2);
        let used = BumpAllocator::stats(&arena).used_bytes;
        let err = stream.next_seed(seed).unwrap().err().unwrap();
        assert!(err.to_string().contains(message), "{err}");
        assert_eq!(BumpAllocator::stats(&arena).used_bytes, used);
        assert!(stream.next_seed(seed).is_none());
    }
    // postcard keeps no message of a serde error: its `SerdeDeCustom`.
    run(
        &mut arena_core::postcard::SliceStream::new(&postcard),
        "Serde Deserialization Error",
    );
    run(
        &mut arena_core::msgpack::SliceStream::new(&msgpack),
        "length limit of 2",
    );
    run(
        &mut arena_core::cbor::SliceStream::new(&cbor),
        "length limit of 2",
    );
}

#[test]
fn a_truncated_or_broken_cbor_record_is_cbor4iis_error_and_ends_the_stream() {
    let arena = SlabArena::new();
    let (bytes, lens) = file(cbor_row);
    let last = bytes.len() - lens[lens.len() - 1];
    for broken in [
        &bytes[..bytes.len() - 1],
        &[&bytes[..last], &[0xff][..]].concat()[..],
    ] {
        let err = fails_after(arena_core::cbor::SliceStream::new(broken), lens.len() - 1);
        let alone = arena_core::cbor::from_slice::<ArenaRow<'_>, _>(&arena, &broken[last..]);
        assert_eq!(err.to_string(), alone.unwrap_err().to_string());
    }
}

/// The error of the record after `oks` good ones in `stream`, checking that it starts where
/// they end and that the stream ends after it.
fn fails_after<F: RecordFormat>(mut stream: RecordStream<'_, F>, oks: usize) -> F::Error
where
    F::Error: std::fmt::Debug,
{
    let arena = SlabArena::new();
    let mut end = 0;
    for _ in 0..oks {
        stream.next_in::<ArenaRow<'_>, _>(&arena).unwrap().unwrap();
        end = stream.byte_offset();
    }
    let err = stream
        .next_in::<ArenaRow<'_>, _>(&arena)
        .unwrap()
        .unwrap_err();
    assert_eq!(stream.byte_offset(), end);
    assert!(stream.next_in::<ArenaRow<'_>, _>(&arena).is_none());
    err
}
