//! Class-name globs for `--ignore-class` and filter files.
//!
//! A pattern is matched against the binary class name (`a.b.Outer$Inner`):
//! `*` and `?` stay within one package segment, `**` spans segments
//! (`com.example.**` is every class under `com.example`), `[...]` and `{a,b}` work
//! as in shell globs. A name without glob characters matches only itself.

use globset::{Glob, GlobBuilder, GlobMatcher};

#[derive(Debug, Clone)]
pub struct ClassGlob {
    pattern: String,
    matcher: GlobMatcher,
}

impl ClassGlob {
    /// Errors are one-line messages naming the pattern.
    pub fn new(pattern: &str) -> Result<ClassGlob, String> {
        let pattern = pattern.trim();
        let glob: Glob = GlobBuilder::new(&to_path(pattern))
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| format!("invalid class pattern '{pattern}': {}", e.kind()))?;
        Ok(ClassGlob { pattern: pattern.to_string(), matcher: glob.compile_matcher() })
    }

    pub fn is_match(&self, class: &str) -> bool {
        self.matcher.is_match(to_path(class))
    }

    pub fn pattern(&self) -> &str {
        &self.pattern
    }
}

/// True when `pattern` uses glob syntax (otherwise it is a plain class name).
pub fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '[', '{'])
}

/// Package segments become path segments, so `*` cannot cross them.
fn to_path(name: &str) -> String {
    name.replace('.', "/")
}

/// A glob on a member name (`method`, `field` in filter rules): `*` matches anything.
#[derive(Debug, Clone)]
pub struct NameGlob(GlobMatcher);

impl NameGlob {
    pub fn new(pattern: &str) -> Result<NameGlob, String> {
        Glob::new(pattern.trim())
            .map(|g| NameGlob(g.compile_matcher()))
            .map_err(|e| format!("invalid name pattern '{pattern}': {}", e.kind()))
    }

    pub fn is_match(&self, name: &str) -> bool {
        self.0.is_match(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        let g = ClassGlob::new("com.example.gen.*").unwrap();
        assert!(g.is_match("com.example.gen.Foo"));
        assert!(g.is_match("com.example.gen.Foo$Inner"));
        assert!(!g.is_match("com.example.gen.sub.Foo"), "* stays in one segment");
        assert!(!g.is_match("com.example.Foo"));
        let deep = ClassGlob::new("com.example.**").unwrap();
        assert!(deep.is_match("com.example.gen.sub.Foo"));
        assert!(!deep.is_match("org.example.Foo"));
        let inner = ClassGlob::new("**.*$Builder").unwrap();
        assert!(inner.is_match("a.b.Foo$Builder") && !inner.is_match("a.b.Foo"));
    }

    #[test]
    fn exact_names() {
        let g = ClassGlob::new("a.B$C").unwrap();
        assert!(g.is_match("a.B$C"));
        assert!(!g.is_match("a.B") && !g.is_match("a.B$CD") && !g.is_match("aXB$C"));
        assert!(!is_glob("a.B$C") && is_glob("a.*"));
    }

    #[test]
    fn bad_pattern_is_named() {
        let err = ClassGlob::new("a.[b").unwrap_err();
        assert!(err.contains("'a.[b'"), "{err}");
        assert!(NameGlob::new("get*").unwrap().is_match("getX"));
    }
}
