//! Source bytes to text.

use std::borrow::Cow;

/// The text of a layout file's bytes: UTF-16 little- or big-endian when the bytes start with
/// its byte-order mark (`FF FE`, `FE FF`; Visual Studio saves "Unicode" files so), UTF-8
/// otherwise (a UTF-8 byte-order mark is kept; the parsers skip it). Invalid sequences —
/// unpaired surrogates, a lone last byte, bad UTF-8 — become U+FFFD, so positions in messages
/// still count the characters the file has.
///
/// ```
/// let utf16: Vec<u8> = [0xFF, 0xFE].into_iter()
///     .chain("D3D11".encode_utf16().flat_map(u16::to_le_bytes)).collect();
/// assert_eq!(inlay::text::decode_source(&utf16), "D3D11");
/// assert_eq!(inlay::text::decode_source(b"ab"), "ab");
/// ```
pub fn decode_source(bytes: &[u8]) -> Cow<'_, str> {
    let utf16 = |body: &[u8], little: bool| -> Cow<'_, str> {
        let units = body.chunks(2).map(|c| match (c, little) {
            ([a, b], true) => u16::from_le_bytes([*a, *b]),
            ([a, b], false) => u16::from_be_bytes([*a, *b]),
            // An odd last byte: not a code unit.
            _ => 0xDC00,
        });
        Cow::Owned(
            char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect(),
        )
    };
    match bytes {
        [0xFF, 0xFE, body @ ..] => utf16(body, true),
        [0xFE, 0xFF, body @ ..] => utf16(body, false),
        _ => String::from_utf8_lossy(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_with_bom() {
        let text = "// é\r\nconst D3D11_INPUT_ELEMENT_DESC d[] = { { \"P\" } };\r\n";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode_source(&le), text);
        assert_eq!(decode_source(&be), text);
        let p = crate::text::c::parse(&decode_source(&le), None).unwrap();
        assert_eq!(p.elements[0].semantic_name.as_deref(), Some("P"));
        // An unpaired surrogate and an odd last byte.
        assert_eq!(
            decode_source(&[0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00, 0x42]),
            "\u{FFFD}A\u{FFFD}"
        );
    }
}
