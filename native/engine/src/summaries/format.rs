//! The binary layout of a summary file, and its checks.
//!
//! ```text
//! prefix    magic "RACERSUM" | format version u32 | index length u32 | index CRC-32 u32   (20 bytes, little endian)
//! index     postcard: tool version, the analysis mode (`Extensions::mode`), what the module
//!           says of the schedulers it keeps (`kept_schedulers::ModuleSchedulers`), then one entry
//!           per chunk (package, first and last class, offset, length, uncompressed length,
//!           CRC-32 of the stored bytes)
//! chunks    zstd-compressed [`Chunk`]s, each the classes of one package (at most
//!           CHUNK_CLASSES of them): a directory (postcard: class names, and where each
//!           class's header ends), the class headers (postcard, one after the other), then
//!           the inline shapes and the methods' summaries (postcard [`codec::Encoded`])
//! ```
//!
//! A reader decodes a class header only when it asks for that class, and a chunk's shapes
//! and summaries only when it asks for a method of the chunk: a downstream module reaches a
//! few classes of most chunks it touches (supertypes, field owners).
//!
//! A reader checks the prefix and the index when it opens a file, and each chunk's
//! checksum when it first decodes that chunk: a downstream module reads and checks only
//! the chunks it reaches, and a corrupt byte anywhere it reads is an error naming the file.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::codec;
use crate::analysis::kept_schedulers::ModuleSchedulers;
use crate::classfile::model::{ClassHeader, InlineShape, MethodRef};

pub const MAGIC: &[u8; 8] = b"RACERSUM";
pub const PREFIX_LEN: usize = 20;
/// Classes per chunk: the unit a reader decodes. Small enough that a module reaching one
/// class of a package decodes little, large enough to compress well.
pub const CHUNK_CLASSES: usize = 32;
/// zstd level 3 (the library default): on the corpus's summaries, half the size of lz4 and
/// 15% smaller than level 1, for about twice level 1's compression time (chunks are
/// compressed in parallel); decompression is as fast (see docs/performance.md).
const ZSTD_LEVEL: i32 = 3;

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ChunkEntry {
    pub package: String,
    pub first: String,
    pub last: String,
    pub offset: u64,
    pub len: u32,
    pub raw_len: u32,
    pub crc: u32,
}

/// One chunk's content: class headers sorted by name, inline shapes and summaries
/// sorted by method, with tables local to the chunk (see [`codec`]).
pub struct Chunk {
    pub classes: Vec<ClassHeader>,
    pub inline: Vec<(MethodRef, InlineShape)>,
    pub summaries: codec::Encoded,
}

/// A chunk's directory: its class names, and where each class's header ends in the bytes
/// after the directory (the shapes and summaries start at the last end).
#[derive(Serialize, Deserialize)]
struct Directory {
    names: Vec<String>,
    header_ends: Vec<u32>,
}

/// A chunk as read: decompressed and checked, its parts still encoded in `bytes`.
pub struct ReadChunk {
    pub bytes: Vec<u8>,
    /// Each class's name and the range of its header in `bytes`.
    pub classes: Vec<(String, Range<usize>)>,
    /// Where the inline shapes and summaries start in `bytes`.
    pub rest: usize,
}

/// The package of a binary class name (`""` for the unnamed package).
pub use crate::classfile::model::package_of;

/// A chunk ready to be written: its index entry (offset still relative) and stored bytes.
pub struct EncodedChunk {
    pub entry: ChunkEntry,
    pub bytes: Vec<u8>,
}

thread_local! {
    /// One compression context per worker: a fresh one per chunk allocates and clears its
    /// tables each time, a reused one mostly does not.
    static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> = const { std::cell::RefCell::new(None) };
}

fn compress(raw: &[u8]) -> Vec<u8> {
    COMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        let compressor = slot.get_or_insert_with(|| zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("a zstd context"));
        compressor.compress(raw).expect("zstd compression of a buffer in memory")
    })
}

pub fn encode_chunk(chunk: &Chunk) -> EncodedChunk {
    let mut headers = Vec::new();
    let mut header_ends = Vec::with_capacity(chunk.classes.len());
    for c in &chunk.classes {
        headers = postcard::to_extend(c, headers).expect("class headers always serialise");
        header_ends.push(headers.len() as u32);
    }
    let names = chunk.classes.iter().map(|c| c.name.to_string()).collect();
    let mut raw = postcard::to_stdvec(&Directory { names, header_ends }).expect("a directory always serialises");
    raw.extend_from_slice(&headers);
    raw = postcard::to_extend(&(&chunk.inline, &chunk.summaries), raw).expect("summaries always serialise");
    let bytes = compress(&raw);
    let name = |c: Option<&ClassHeader>| c.map(|h| h.name.to_string()).unwrap_or_default();
    EncodedChunk {
        entry: ChunkEntry {
            package: package_of(&name(chunk.classes.first())).to_string(),
            first: name(chunk.classes.first()),
            last: name(chunk.classes.last()),
            offset: 0,
            len: bytes.len() as u32,
            raw_len: raw.len() as u32,
            crc: crc32fast::hash(&bytes),
        },
        bytes,
    }
}

/// Whether `bytes` have the stored CRC-32. Fuzzing builds (`--cfg fuzzing`, scripts/fuzz.sh)
/// accept any checksum: a mutated file would otherwise almost never get past it, and the
/// decoders behind it would go unexplored.
pub fn checksum_matches(bytes: &[u8], expected: u32) -> bool {
    cfg!(fuzzing) || crc32fast::hash(bytes) == expected
}

/// Checks and decodes one chunk's stored bytes; the error says what is wrong (the
/// caller names the file).
pub fn decode_chunk(entry: &ChunkEntry, bytes: &[u8]) -> Result<ReadChunk, String> {
    if !checksum_matches(bytes, entry.crc) {
        return Err(format!("checksum mismatch in the summaries of package '{}' (corrupt file)", entry.package));
    }
    let malformed = |e: &dyn std::fmt::Display| format!("malformed summary file: package '{}': {e}", entry.package);
    let raw = zstd::bulk::decompress(bytes, entry.raw_len as usize).map_err(|e| malformed(&e))?;
    let (directory, headers) = postcard::take_from_bytes::<Directory>(&raw).map_err(|e| malformed(&e))?;
    if directory.names.len() != directory.header_ends.len() {
        return Err(malformed(&"class directory columns of different lengths"));
    }
    let mut start = raw.len() - headers.len();
    let mut classes = Vec::with_capacity(directory.names.len());
    for (name, end) in directory.names.into_iter().zip(directory.header_ends) {
        let end = raw.len() - headers.len() + end as usize;
        if end < start || end > raw.len() {
            return Err(malformed(&format!("class '{name}' lies outside the chunk")));
        }
        classes.push((name, start..end));
        start = end;
    }
    Ok(ReadChunk { bytes: raw, classes, rest: start })
}

/// Decodes the header of class `name` (its bytes in a chunk); the error names the class.
pub fn decode_header(name: &str, bytes: &[u8]) -> Result<ClassHeader, String> {
    let header: ClassHeader = postcard::from_bytes(bytes).map_err(|e| format!("class '{name}': {e}"))?;
    if header.name.as_str() != name {
        return Err(format!("class '{name}' holds the header of '{}'", header.name));
    }
    Ok(header)
}

/// Decodes a chunk's inline shapes and summaries (the bytes from [`ReadChunk::rest`]); the
/// error names the package.
pub fn decode_rest(package: &str, bytes: &[u8]) -> Result<(Vec<(MethodRef, InlineShape)>, codec::Encoded), String> {
    postcard::from_bytes(bytes).map_err(|e| format!("package '{package}': {e}"))
}

/// What a file's index says besides its chunks.
pub struct IndexHead<'a> {
    pub tool_version: &'a str,
    /// The analysis mode that made the file (`Extensions::mode`).
    pub mode: &'a str,
    pub schedulers: &'a ModuleSchedulers,
}

/// The prefix and index of a file whose chunks, of the entries' lengths, follow it in order
/// (offsets filled in).
pub fn encode_index(head: &IndexHead<'_>, entries: &mut [ChunkEntry], format_version: u32) -> Vec<u8> {
    // Offsets depend on the index length, which depends on the offsets' varint widths:
    // iterate until stable (two rounds in practice).
    let mut index_len = 0usize;
    loop {
        let mut offset = (PREFIX_LEN + index_len) as u64;
        for e in entries.iter_mut() {
            e.offset = offset;
            offset += e.len as u64;
        }
        let index =
            postcard::to_stdvec(&(head.tool_version, head.mode, head.schedulers, &*entries)).expect("index always serialises");
        if index.len() == index_len {
            let mut out = Vec::with_capacity(PREFIX_LEN + index.len());
            out.extend_from_slice(MAGIC);
            out.extend_from_slice(&format_version.to_le_bytes());
            out.extend_from_slice(&(index.len() as u32).to_le_bytes());
            out.extend_from_slice(&crc32fast::hash(&index).to_le_bytes());
            out.extend_from_slice(&index);
            return out;
        }
        index_len = index.len();
    }
}

pub struct Prefix {
    pub format_version: u32,
    pub index_len: usize,
    pub index_crc: u32,
}

/// `None` when the bytes do not start with the magic number.
pub fn decode_prefix(bytes: &[u8; PREFIX_LEN]) -> Option<Prefix> {
    if &bytes[..8] != MAGIC {
        return None;
    }
    let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    Some(Prefix { format_version: u32_at(8), index_len: u32_at(12) as usize, index_crc: u32_at(16) })
}

/// An index's content after the tool version: the analysis mode, what the module says of the
/// schedulers it keeps, and the chunk entries.
pub type IndexRest = (String, ModuleSchedulers, Vec<ChunkEntry>);

/// The tool version alone first (so that a file from another version is reported as
/// such, whatever its index looks like), then the rest.
pub fn decode_index(index: &[u8]) -> Result<(String, impl FnOnce() -> Result<IndexRest, String> + '_), String> {
    let malformed = |e: postcard::Error| format!("malformed summary file: index: {e}");
    let (tool, rest) = postcard::take_from_bytes::<String>(index).map_err(malformed)?;
    Ok((tool, move || postcard::from_bytes::<IndexRest>(rest).map_err(malformed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn class(name: &str) -> ClassHeader {
        ClassHeader {
            name: Sym::new(name),
            flags: 0,
            super_class: Some(Sym::new("java.lang.Object")),
            interfaces: Vec::new(),
            annotations: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            source_file: None,
            kotlin_internal: false,
        }
    }

    fn read(classes: Vec<ClassHeader>) -> ReadChunk {
        let encoded = encode_chunk(&Chunk { classes, inline: Vec::new(), summaries: codec::Encoded::default() });
        decode_chunk(&encoded.entry, &encoded.bytes).unwrap()
    }

    #[test]
    fn each_class_header_decodes_on_its_own() {
        let mut chunk = read(vec![class("p.A"), class("p.B")]);
        let names: Vec<&str> = chunk.classes.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["p.A", "p.B"]);
        // Damage B's header: A still decodes, B is an error naming it.
        let b = chunk.classes[1].1.clone();
        chunk.bytes[b.start] = 0xff;
        let a = &chunk.classes[0].1;
        assert_eq!(decode_header("p.A", &chunk.bytes[a.clone()]).unwrap().name.as_str(), "p.A");
        let err = decode_header("p.B", &chunk.bytes[b]).unwrap_err();
        assert!(err.starts_with("class 'p.B': "), "{err}");
        assert!(decode_rest("p", &chunk.bytes[chunk.rest..]).is_ok());
    }

    /// A worker compresses chunk after chunk with one zstd context: a chunk's bytes must not
    /// depend on what the worker compressed before (summary files are the same on any thread
    /// count), and must be what a fresh context gives.
    #[test]
    fn a_chunk_compresses_to_the_same_bytes_whatever_came_before() {
        let chunk = |names: &[&str]| Chunk {
            classes: names.iter().map(|n| class(n)).collect(),
            inline: Vec::new(),
            summaries: codec::Encoded::default(),
        };
        let a = chunk(&["p.A", "p.AA", "p.AAA"]);
        let first = encode_chunk(&a).bytes;
        let other: Vec<String> = (0..200).map(|i| format!("q.Other{i}")).collect();
        encode_chunk(&chunk(&other.iter().map(String::as_str).collect::<Vec<_>>()));
        assert_eq!(encode_chunk(&a).bytes, first);
        let raw = zstd::bulk::decompress(&first, 1 << 20).unwrap();
        assert_eq!(zstd::bulk::compress(&raw, ZSTD_LEVEL).unwrap(), first);
    }

    #[test]
    fn a_header_filed_under_another_name_is_an_error() {
        let chunk = read(vec![class("p.A")]);
        let err = decode_header("p.Z", &chunk.bytes[chunk.classes[0].1.clone()]).unwrap_err();
        assert_eq!(err, "class 'p.Z' holds the header of 'p.A'");
    }
}
