//! Whether kotlinc declared a class `internal`, read from its `kotlin.Metadata` annotation.
//!
//! A Kotlin `internal` class is public in the class file: only the metadata says that the
//! Kotlin code of other modules cannot name it. The metadata's `d1` strings hold protocol
//! buffers (Kotlin's `metadata.proto`): for a class (`k = 1`), a length-delimited string
//! table, then the `Class` message, whose field 1 is its flags. Bits 1 to 3 of the flags are
//! the visibility; a class whose flags are absent has the default, 6 (public, final).
//!
//! kotlinc writes `d1` one byte per character behind a leading `\0` (its "UTF-8 mode"); the
//! older 7-bit packing is not read (no visibility is then known). Only the first varint
//! fields are decoded; no protobuf library is needed for that, and the full schema is not
//! ours to keep in step.

/// `k` of a class's own metadata (not a file facade's, nor a lambda's).
const CLASS_KIND: i32 = 1;
/// The `Class` message's flags when it writes none: public and final.
const DEFAULT_CLASS_FLAGS: u64 = 6;
/// Marks `d1` written one byte per character.
const BYTE_MODE_MARKER: char = '\0';
/// `ProtoBuf.Visibility.INTERNAL`. (A `private` class is not public in the class file.)
const INTERNAL: u64 = 0;

/// Whether a class's metadata, its kind `k` and `d1` strings, declares it `internal`; false
/// when they are not a class's or cannot be read.
pub fn declares_internal_class(k: i32, d1: &[&str]) -> bool {
    k == CLASS_KIND && class_flags(d1).is_some_and(|flags| (flags >> 1) & 0b111 == INTERNAL)
}

fn class_flags(d1: &[&str]) -> Option<u64> {
    let bytes = metadata_bytes(d1)?;
    let mut input = Reader { bytes: &bytes, at: 0 };
    // The string table, length-delimited before the class.
    let table_length = input.varint()?;
    input.skip(table_length)?;
    Some(input.first_varint_field(1)?.unwrap_or(DEFAULT_CLASS_FLAGS))
}

/// The bytes of `d1` in byte mode: each character after the marker is one byte.
fn metadata_bytes(d1: &[&str]) -> Option<Vec<u8>> {
    let mut chars = d1.iter().flat_map(|s| s.chars());
    if chars.next()? != BYTE_MODE_MARKER {
        return None;
    }
    chars.map(|c| u8::try_from(u32::from(c)).ok()).collect()
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn skip(&mut self, n: u64) -> Option<()> {
        let end = self.at.checked_add(usize::try_from(n).ok()?)?;
        (end <= self.bytes.len()).then(|| self.at = end)
    }

    /// The value of varint field `number` of the message that runs to the end of the bytes,
    /// when it comes before any field of another wire type than varint or length-delimited
    /// (`Ok(None)` when the message ends without it).
    fn first_varint_field(&mut self, number: u64) -> Option<Option<u64>> {
        while self.at < self.bytes.len() {
            let key = self.varint()?;
            let value = match key & 0b111 {
                0 => self.varint()?,
                2 => {
                    let length = self.varint()?;
                    self.skip(length)?;
                    continue;
                }
                _ => return None,
            };
            if key >> 3 == number {
                return Some(Some(value));
            }
        }
        Some(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn internal(k: i32, d1: &[String]) -> bool {
        declares_internal_class(k, &d1.iter().map(String::as_str).collect::<Vec<_>>())
    }

    fn d1(bytes: &[u8]) -> Vec<String> {
        vec![std::iter::once('\0').chain(bytes.iter().map(|&b| char::from(b))).collect()]
    }

    /// A string table of two bytes, then the class's fields.
    fn class(fields: &[u8]) -> Vec<String> {
        d1(&[[2, 0x0a, 0x00].as_slice(), fields].concat())
    }

    #[test]
    fn the_visibility_is_read_from_the_class_flags() {
        assert!(internal(1, &class(&[0x08, 0x00, 0x18, 0x00])));
        // Private, then public.
        assert!(!internal(1, &class(&[0x08, 0x02])));
        assert!(!internal(1, &class(&[0x08, 0x06])));
        // No flags written: the default, public.
        assert!(!internal(1, &class(&[0x18, 0x00])));
        // A field before the flags, and flags above 127 (an annotated internal class).
        assert!(internal(1, &class(&[0x12, 0x01, 0x41, 0x08, 0x81, 0x04])));
    }

    #[test]
    fn what_is_not_a_class_in_byte_mode_is_not_internal() {
        assert!(!internal(2, &class(&[0x08, 0x00])));
        assert!(!internal(1, &["\u{1}\u{8}\u{0}".to_string()]));
        assert!(!internal(1, &[]));
        // A string table longer than the bytes.
        assert!(!internal(1, &d1(&[0x40, 0x0a])));
        // A character that is no byte.
        assert!(!internal(1, &["\0\u{100}".to_string()]));
    }
}
