//! Minimal JVM descriptor parsing: parameter types and widths, return kind; and a parsed
//! method descriptor written back as text.

use cafebabe::descriptors::{FieldDescriptor, FieldType, MethodDescriptor, ReturnDescriptor};

/// A parsed method descriptor as the class file writes it (`([ILjava/lang/String;)V`). Every
/// method has one: pushed character by character, not through the formatting machinery,
/// which costs several times as much.
pub fn method_descriptor_text(d: &MethodDescriptor<'_>) -> String {
    let mut out = String::with_capacity(32);
    out.push('(');
    for p in &d.parameters {
        push_field_descriptor(&mut out, p);
    }
    out.push(')');
    match &d.return_type {
        ReturnDescriptor::Void => out.push('V'),
        ReturnDescriptor::Return(f) => push_field_descriptor(&mut out, f),
    }
    out
}

fn push_field_descriptor(out: &mut String, f: &FieldDescriptor<'_>) {
    for _ in 0..f.dimensions {
        out.push('[');
    }
    let code = match &f.field_type {
        FieldType::Byte => 'B',
        FieldType::Char => 'C',
        FieldType::Double => 'D',
        FieldType::Float => 'F',
        FieldType::Integer => 'I',
        FieldType::Long => 'J',
        FieldType::Short => 'S',
        FieldType::Boolean => 'Z',
        FieldType::Object(class) => {
            out.push('L');
            out.push_str(class);
            out.push(';');
            return;
        }
    };
    out.push(code);
}

/// Each parameter's type descriptor (`I`, `[J`, `Ljava/util/List;`), in order.
pub fn param_types(descriptor: &str) -> Vec<&str> {
    params(descriptor).collect()
}

/// Each parameter's type descriptor, in order, without collecting them.
pub fn params(descriptor: &str) -> impl Iterator<Item = &str> + '_ {
    let bytes = descriptor.as_bytes();
    let mut i = bytes.iter().position(|&b| b == b'(').map_or(bytes.len(), |p| p + 1);
    std::iter::from_fn(move || {
        if i >= bytes.len() || bytes[i] == b')' {
            return None;
        }
        let start = i;
        while i < bytes.len() && bytes[i] == b'[' {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        if bytes[i] == b'L' {
            while i < bytes.len() && bytes[i] != b';' {
                i += 1;
            }
        }
        i += 1;
        Some(&descriptor[start..i.min(bytes.len())])
    })
}

/// Whether a parameter type takes two slots (`long`, `double`).
pub fn is_wide(param: &str) -> bool {
    matches!(param.as_bytes().first(), Some(b'J' | b'D'))
}

/// Width of each parameter (true = long/double, two slots), in order.
pub fn param_widths(descriptor: &str) -> Vec<bool> {
    params(descriptor).map(is_wide).collect()
}

/// The index of the parameter an instance method (`this` in slot 0) keeps in local `slot`.
pub fn param_at_slot(descriptor: &str, slot: u16) -> Option<usize> {
    let mut next = 1;
    for (i, wide) in param_widths(descriptor).into_iter().enumerate() {
        if next == slot {
            return Some(i);
        }
        next += if wide { 2 } else { 1 };
    }
    None
}

/// The return type of a method descriptor (`V` for void).
fn return_type(descriptor: &str) -> &str {
    descriptor.rsplit(')').next().unwrap_or("V")
}

/// `None` for void, `Some(wide)` otherwise.
pub fn return_kind(descriptor: &str) -> Option<bool> {
    match return_type(descriptor).as_bytes().first() {
        None | Some(b'V') => None,
        Some(b'J' | b'D') => Some(true),
        Some(_) => Some(false),
    }
}

/// Whether a method returns a `boolean` (its answer may say whether it took a lock).
pub fn returns_boolean(descriptor: &str) -> bool {
    descriptor.ends_with(")Z")
}

/// Whether a method returns an instance of a class (not a primitive, an array or void).
pub fn returns_class_instance(descriptor: &str) -> bool {
    return_type(descriptor).starts_with('L')
}

/// Whether a method returns an object of the class named `class` (`p.C`), its own type for a
/// method of that class.
pub fn returns_object_of(descriptor: &str, class: &str) -> bool {
    is_object_of(return_type(descriptor), class)
}

/// Class name of an object field/return descriptor (`Ljava/util/Map;` -> `java.util.Map`).
pub fn object_class(descriptor: &str) -> Option<String> {
    let d = descriptor.strip_prefix('L')?.strip_suffix(';')?;
    Some(d.replace('/', "."))
}

/// Whether an object field descriptor (`Lp/C;`) is the type of the class named `class`
/// (`p.C`), compared in place.
pub fn is_object_of(descriptor: &str, class: &str) -> bool {
    descriptor.strip_prefix('L').and_then(|d| d.strip_suffix(';')).is_some_and(|d| {
        d.len() == class.len() && d.bytes().zip(class.bytes()).all(|(x, y)| x == y || (x == b'/' && y == b'.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_count_wide_parameters_twice() {
        assert_eq!(param_at_slot("(Landroid/os/Looper;)V", 1), Some(0));
        assert_eq!(param_at_slot("(JLandroid/os/Looper;)V", 3), Some(1));
        assert_eq!(param_at_slot("(Lp/Outer;Landroid/os/Looper;)V", 2), Some(1));
        assert_eq!(param_at_slot("(I)V", 2), None);
    }

    #[test]
    fn a_method_returns_its_own_class_only_when_the_return_type_names_it() {
        assert!(returns_object_of("(I)Lp/Request;", "p.Request"));
        assert!(!returns_object_of("(Lp/Request;)Lp/Protocol;", "p.Request"));
        assert!(!returns_object_of("(Lp/Request;)V", "p.Request"));
    }

    /// A field of a class's own type names the class with slashes, in an object descriptor.
    #[test]
    fn a_descriptor_names_its_own_class_type_only() {
        let own = |d: &str| is_object_of(d, "p.q.Registry");
        assert!(own("Lp/q/Registry;"));
        assert!(!own("Lp/q/Registry2;") && !own("Lp/q/Regist;") && !own("[Lp/q/Registry;") && !own("Lp/q/Registry"));
    }

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

    #[test]
    fn a_method_descriptor_is_written_back_as_the_class_file_has_it() {
        use cafebabe::descriptors::ClassName;
        let field = |dimensions: u8, field_type: FieldType<'static>| FieldDescriptor { dimensions, field_type };
        let class = |name: &'static str| FieldType::Object(ClassName::try_from(std::borrow::Cow::Borrowed(name)).unwrap());
        let all_kinds = MethodDescriptor {
            parameters: vec![
                field(0, FieldType::Byte),
                field(0, FieldType::Char),
                field(0, FieldType::Double),
                field(0, FieldType::Float),
                field(1, FieldType::Integer),
                field(0, FieldType::Long),
                field(0, FieldType::Short),
                field(0, FieldType::Boolean),
                field(2, class("java/lang/String")),
            ],
            return_type: ReturnDescriptor::Return(field(0, class("java/util/List"))),
        };
        assert_eq!(method_descriptor_text(&all_kinds), "(BCDF[IJSZ[[Ljava/lang/String;)Ljava/util/List;");
        assert_eq!(method_descriptor_text(&all_kinds), all_kinds.to_string());
        let nothing = MethodDescriptor { parameters: Vec::new(), return_type: ReturnDescriptor::Void };
        assert_eq!(method_descriptor_text(&nothing), "()V");
    }
}
