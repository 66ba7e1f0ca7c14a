//! Minimal JVM descriptor parsing: parameter types and widths, return kind.

/// Each parameter's type descriptor (`I`, `[J`, `Ljava/util/List;`), in order.
pub fn param_types(descriptor: &str) -> Vec<&str> {
    let mut types = Vec::new();
    let bytes = descriptor.as_bytes();
    let mut i = match bytes.iter().position(|&b| b == b'(') {
        Some(p) => p + 1,
        None => return types,
    };
    while i < bytes.len() && bytes[i] != b')' {
        let start = i;
        while i < bytes.len() && bytes[i] == b'[' {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        if bytes[i] == b'L' {
            while i < bytes.len() && bytes[i] != b';' {
                i += 1;
            }
        }
        i += 1;
        types.push(&descriptor[start..i.min(bytes.len())]);
    }
    types
}

/// Width of each parameter (true = long/double, two slots), in order.
pub fn param_widths(descriptor: &str) -> Vec<bool> {
    param_types(descriptor).iter().map(|t| matches!(t.as_bytes().first(), Some(b'J' | b'D'))).collect()
}

/// `None` for void, `Some(wide)` otherwise.
pub fn return_kind(descriptor: &str) -> Option<bool> {
    let ret = descriptor.rsplit(')').next().unwrap_or("V");
    match ret.as_bytes().first() {
        None | Some(b'V') => None,
        Some(b'J' | b'D') => Some(true),
        Some(_) => Some(false),
    }
}

/// Class name of an object field/return descriptor (`Ljava/util/Map;` -> `java.util.Map`).
pub fn object_class(descriptor: &str) -> Option<String> {
    let d = descriptor.strip_prefix('L')?.strip_suffix(';')?;
    Some(d.replace('/', "."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_and_returns() {
        assert_eq!(param_widths("(IJLjava/lang/String;[J[[Ljava/lang/Object;D)V"), vec![false, true, false, false, false, true]);
        assert_eq!(param_widths("()V"), Vec::<bool>::new());
        assert_eq!(param_types("(I[JLjava/util/List;)V"), vec!["I", "[J", "Ljava/util/List;"]);
        assert_eq!(return_kind("()V"), None);
        assert_eq!(return_kind("()J"), Some(true));
        assert_eq!(return_kind("()[J"), Some(false));
        assert_eq!(object_class("Ljava/util/Map;").as_deref(), Some("java.util.Map"));
    }
}
