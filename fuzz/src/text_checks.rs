//! Checks shared by the layout-text targets.

use inlay::dxbc::{self, Container};
use inlay::target::Target;
use inlay::text::{ParsedLayout, TextError, line_col};
use inlay::validation;

/// What must hold of a parser's answer on `source`: an error names a position inside the text
/// whose line and column agree with its byte offset; a layout has one span per element, each
/// inside the text; and the layout goes through `CreateInputLayout` (shader-less) without
/// panicking.
pub fn check_layout(source: &str, r: &Result<ParsedLayout, TextError>) {
    match r {
        Err(e) => check_error(source, e),
        Ok(layout) => {
            assert_eq!(layout.elements.len(), layout.spans.len());
            for s in &layout.spans {
                assert!(s.element.start <= s.element.end && s.element.end <= source.len());
                for f in s.fields.iter().flatten() {
                    assert!(f.start <= f.end && f.end <= source.len(), "{f:?}");
                }
            }
            let _ = validation::layout_without_shader(&Target::default(), &layout.elements);
        }
    }
}

/// An error's position is inside the text and self-consistent.
pub fn check_error(source: &str, e: &TextError) {
    assert!(e.offset <= source.len(), "{e:?}");
    assert_eq!(line_col(source, e.offset), (e.line, e.column), "{e:?}");
    assert!(!e.to_string().is_empty());
    let span = e.span();
    assert!(span.start <= span.end);
}

/// A signature description that parses writes to a signature-only blob that reads back.
pub fn check_signature(source: &str, r: &Result<dxbc::Signature, TextError>) {
    match r {
        Err(e) => check_error(source, e),
        Ok(sig) => {
            let blob = dxbc::signature_blob(sig);
            let c = Container::parse(&blob).expect("signature blob parses");
            assert!(c.checksum_matches());
            let back = c.input_signature().expect("reads").expect("has ISGN/ISG1");
            assert_eq!(back.elements.len(), sig.elements.len());
        }
    }
}
