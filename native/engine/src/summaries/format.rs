//! The binary layout of a summary file, and its checks.
//!
//! ```text
//! prefix    magic "RACERSUM" | format version u32 | index length u32 | index CRC-32 u32   (20 bytes, little endian)
//! index     postcard: tool version, then one entry per chunk (package, first and last
//!           class, offset, length, uncompressed length, CRC-32 of the stored bytes)
//! chunks    zstd-compressed postcard [`Chunk`]s: the classes of one package (at most
//!           CHUNK_CLASSES of them), their inline shapes and their methods' summaries
//! ```
//!
//! A reader checks the prefix and the index when it opens a file, and each chunk's
//! checksum when it first decodes that chunk: a downstream module reads and checks only
//! the chunks it reaches, and a corrupt byte anywhere it reads is an error naming the file.

use serde::{Deserialize, Serialize};

use super::codec;
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
#[derive(Serialize, Deserialize)]
pub struct Chunk {
    pub classes: Vec<ClassHeader>,
    pub inline: Vec<(MethodRef, InlineShape)>,
    pub summaries: codec::Encoded,
}

/// The package of a binary class name (`""` for the unnamed package).
pub fn package_of(class: &str) -> &str {
    class.rfind('.').map_or("", |i| &class[..i])
}

/// A chunk ready to be written: its index entry (offset still relative) and stored bytes.
pub struct EncodedChunk {
    pub entry: ChunkEntry,
    pub bytes: Vec<u8>,
}

pub fn encode_chunk(chunk: &Chunk) -> EncodedChunk {
    let raw = postcard::to_stdvec(chunk).expect("summary chunks always serialise");
    let bytes = zstd::bulk::compress(&raw, ZSTD_LEVEL).expect("zstd compression of a buffer in memory");
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
pub fn decode_chunk(entry: &ChunkEntry, bytes: &[u8]) -> Result<Chunk, String> {
    if !checksum_matches(bytes, entry.crc) {
        return Err(format!("checksum mismatch in the summaries of package '{}' (corrupt file)", entry.package));
    }
    let raw = zstd::bulk::decompress(bytes, entry.raw_len as usize)
        .map_err(|e| format!("malformed summary file: package '{}': {e}", entry.package))?;
    postcard::from_bytes(&raw).map_err(|e| format!("malformed summary file: package '{}': {e}", entry.package))
}

/// The prefix and index of a file whose chunks, of the entries' lengths, follow it in order
/// (offsets filled in).
pub fn encode_index(tool_version: &str, entries: &mut [ChunkEntry], format_version: u32) -> Vec<u8> {
    // Offsets depend on the index length, which depends on the offsets' varint widths:
    // iterate until stable (two rounds in practice).
    let mut index_len = 0usize;
    loop {
        let mut offset = (PREFIX_LEN + index_len) as u64;
        for e in entries.iter_mut() {
            e.offset = offset;
            offset += e.len as u64;
        }
        let index = postcard::to_stdvec(&(tool_version, &*entries)).expect("index always serialises");
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

/// The tool version alone first (so that a file from another version is reported as
/// such, whatever its index looks like), then the chunk entries.
pub fn decode_index(index: &[u8]) -> Result<(String, impl FnOnce() -> Result<Vec<ChunkEntry>, String> + '_), String> {
    let (tool, rest) =
        postcard::take_from_bytes::<String>(index).map_err(|e| format!("malformed summary file: index: {e}"))?;
    Ok((tool, move || postcard::from_bytes::<Vec<ChunkEntry>>(rest).map_err(|e| format!("malformed summary file: index: {e}"))))
}
