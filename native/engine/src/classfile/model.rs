//! The engine's own, compact view of a class file: what the analysis needs and
//! nothing else. Built once per class by `lower`, after which cafebabe's parse
//! tree is dropped (keeping every parse tree alive would cost ~60 KB per class).

use serde::{Deserialize, Serialize};

use crate::sym::Sym;

pub const ACC_PUBLIC: u16 = 0x0001;
pub const ACC_PRIVATE: u16 = 0x0002;
pub const ACC_PROTECTED: u16 = 0x0004;
pub const ACC_STATIC: u16 = 0x0008;
pub const ACC_FINAL: u16 = 0x0010;
pub const ACC_SYNCHRONIZED: u16 = 0x0020;
pub const ACC_VOLATILE: u16 = 0x0040;
pub const ACC_BRIDGE: u16 = 0x0040;
pub const ACC_NATIVE: u16 = 0x0100;
pub const ACC_INTERFACE: u16 = 0x0200;
pub const ACC_ABSTRACT: u16 = 0x0400;
pub const ACC_SYNTHETIC: u16 = 0x1000;

/// An annotation: its type (binary name, `.` separated) and the elements racer reads.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Annotation {
    #[serde(rename = "type")]
    pub type_name: Sym,
    /// Element name -> value, for boolean, string and string-array elements (others omitted).
    #[serde(default)]
    pub elements: Vec<(Sym, AnnotationValue)>,
    /// Number of elements of any kind (some rules need "exactly one element").
    #[serde(default)]
    pub element_count: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AnnotationValue {
    Bool(bool),
    Str(String),
    /// An array of strings (`@SuppressLint({"a", "b"})`).
    Strs(Vec<String>),
    /// An enum constant, by its name (`@Dispatcher(IO)`: `IO`).
    Enum(String),
    Other,
}

impl Annotation {
    /// The strings of element `name`: one for a string, each for a string array.
    pub fn strings(&self, name: &str) -> Vec<&str> {
        self.elements
            .iter()
            .filter(|(n, _)| n.as_str() == name)
            .flat_map(|(_, v)| match v {
                AnnotationValue::Str(s) => vec![s.as_str()],
                AnnotationValue::Strs(v) => v.iter().map(String::as_str).collect(),
                _ => vec![],
            })
            .collect()
    }

    /// The simple name of the annotation type (`SuppressLint` for `android.annotation.SuppressLint`).
    pub fn simple_name(&self) -> &str {
        let name = self.type_name.as_str();
        let simple = name.rsplit('.').next().unwrap_or(name);
        simple.rsplit('$').next().unwrap_or(simple)
    }

    /// Rule 7.1: the fully-qualified name equals `name` or ends with `.name`.
    pub fn matches(&self, name: &str) -> bool {
        annotation_name_matches(self.type_name.as_str(), name)
    }
}

pub fn annotation_name_matches(type_name: &str, name: &str) -> bool {
    type_name == name
        || (type_name.len() > name.len()
            && type_name.ends_with(name)
            && type_name.as_bytes()[type_name.len() - name.len() - 1] == b'.')
}

/// A declared field: what the analysis needs is its name, flags (`volatile`, `static`)
/// and annotations (`@ThreadConfined`, `@GuardedBy`, `@SynchronizedCollection`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FieldHeader {
    pub name: Sym,
    pub flags: u16,
    #[serde(default)]
    pub annotations: Vec<Annotation>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MethodHeader {
    pub name: Sym,
    pub descriptor: Sym,
    pub flags: u16,
    #[serde(default)]
    pub annotations: Vec<Annotation>,
    /// True when any parameter carries an annotation named `InjectProp`.
    #[serde(default)]
    pub param_inject_prop: bool,
    /// In an AIDL proxy (`I$Stub$Proxy`): the method sends its call as a one-way transaction
    /// (`IBinder.transact` given `FLAG_ONEWAY`), so the binder object serves it one call at a
    /// time (see `analysis::android`).
    #[serde(default)]
    pub sends_oneway: bool,
    /// An `execute(Runnable)` that posts its task to a `Handler` (see
    /// `classfile::handler_executor`): its executor runs tasks where that handler does.
    #[serde(default)]
    pub posts_to_handler: bool,
    /// Such an `execute`'s handler when its object keeps it in a field: the field's name (see
    /// `classfile::handler_executor::posted_field`).
    #[serde(default)]
    pub posted_field: Option<Sym>,
    /// Does nothing but run its one `Runnable` parameter (see
    /// `classfile::direct_executor`): an `execute` of an executor running its tasks at once,
    /// in the calling thread, or the body of a lambda `r -> r.run()`.
    #[serde(default)]
    pub runs_its_task: bool,
    /// A constructor of a direct `Handler` subclass: the looper its `super(...)` call gives the
    /// handler (see `classfile::handler_subclass`), where its `handleMessage` runs.
    #[serde(default)]
    pub handler_looper: Option<HandlerLooper>,
}

#[cfg(test)]
impl MethodHeader {
    /// A method with nothing more than its name, descriptor and flags.
    pub fn plain(name: &str, descriptor: &str, flags: u16) -> MethodHeader {
        MethodHeader {
            name: Sym::new(name),
            descriptor: Sym::new(descriptor),
            flags,
            annotations: Vec::new(),
            param_inject_prop: false,
            sends_oneway: false,
            posts_to_handler: false,
            posted_field: None,
            runs_its_task: false,
            handler_looper: None,
        }
    }
}

/// The looper a `Handler` subclass's constructor makes its handler on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HandlerLooper {
    /// `super(Looper.getMainLooper())`.
    Main,
    /// `super(handlerThread.getLooper())`: a background thread's.
    Worker,
    /// `super()`, `super(callback)`, `super(Looper.myLooper())`: the looper of the thread
    /// making the handler.
    Calling,
    /// `super(looper)`: the constructor's parameter at this index.
    Param(u8),
}

impl MethodHeader {
    pub fn is_static(&self) -> bool {
        self.flags & ACC_STATIC != 0
    }
    pub fn has_annotation(&self, name: &str) -> bool {
        self.annotations.iter().any(|a| a.matches(name))
    }
    /// The parameter part of the descriptor, `(I)` of `(I)V`: overriding compares it.
    pub fn param_types(&self) -> &'static str {
        params_of(self.descriptor)
    }
}

pub fn params_of(descriptor: Sym) -> &'static str {
    let d = descriptor.as_str();
    match d.find(')') {
        Some(end) => &d[..=end],
        None => d,
    }
}

/// Everything about a class except method bodies: the part shared with
/// classpath classes and upstream summary files.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClassHeader {
    /// Binary name with `.` and `$` (`a.b.Outer$Inner`).
    pub name: Sym,
    pub flags: u16,
    #[serde(default)]
    pub super_class: Option<Sym>,
    #[serde(default)]
    pub interfaces: Vec<Sym>,
    #[serde(default)]
    pub annotations: Vec<Annotation>,
    #[serde(default)]
    pub fields: Vec<FieldHeader>,
    #[serde(default)]
    pub methods: Vec<MethodHeader>,
    #[serde(default)]
    pub source_file: Option<Sym>,
    /// Declared `internal` in Kotlin (read from its `kotlin.Metadata`): public in the class
    /// file, but the Kotlin code of other modules cannot name it.
    #[serde(default)]
    pub kotlin_internal: bool,
}

impl ClassHeader {
    pub fn is_interface(&self) -> bool {
        self.flags & ACC_INTERFACE != 0
    }
    pub fn has_annotation(&self, name: &str) -> bool {
        self.annotations.iter().any(|a| a.matches(name))
    }
    /// Whether only code of its own module may name it: a class that is not public, or (with
    /// `kotlin_internal`, the extension) one Kotlin declared `internal`.
    pub fn hidden_from_other_modules(&self, kotlin_internal: bool) -> bool {
        self.flags & ACC_PUBLIC == 0 || (kotlin_internal && self.kotlin_internal)
    }
    /// Compiled by kotlinc, which marks every class it writes with `kotlin.Metadata`.
    pub fn is_kotlin(&self) -> bool {
        self.has_annotation("kotlin.Metadata")
    }
    pub fn field(&self, name: Sym) -> Option<&FieldHeader> {
        self.fields.iter().find(|f| f.name == name)
    }
    pub fn method(&self, name: Sym, descriptor: Sym) -> Option<&MethodHeader> {
        self.methods.iter().find(|m| m.name == name && m.descriptor == descriptor)
    }
    /// Direct supertypes: superclass first, then interfaces in declaration order.
    pub fn supertypes(&self) -> impl Iterator<Item = Sym> + '_ {
        self.super_class.iter().copied().chain(self.interfaces.iter().copied())
    }
    pub fn package(&self) -> &'static str {
        package_of(self.name.as_str())
    }
}

pub fn package_of(class: &str) -> &str {
    match class.rfind('.') {
        Some(i) => &class[..i],
        None => "",
    }
}

/// A field reference from an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FieldRef {
    pub class: Sym,
    pub name: Sym,
    pub descriptor: Sym,
}

impl FieldRef {
    pub fn is_wide(&self) -> bool {
        matches!(self.descriptor.as_str().as_bytes().first(), Some(b'J' | b'D'))
    }
}

/// A method identity: class (binary name), name and descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MethodRef {
    pub class: Sym,
    pub name: Sym,
    pub descriptor: Sym,
}

impl MethodRef {
    pub fn params(&self) -> &'static str {
        params_of(self.descriptor)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvokeKind {
    Virtual,
    Special,
    Static,
    Interface,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfKind {
    /// Compare one int/boolean value with zero (`ifeq` = jump when value == 0).
    Zero(Cmp),
    /// `ifnull` (Eq) / `ifnonnull` (Ne).
    Null(Cmp),
    /// Compare two values.
    Two(Cmp),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Other,
}

/// Constant values pushed on the stack; ints are kept for branch evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstVal {
    Int(i32),
    Null,
    Other,
}

/// An `invokedynamic` call site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DynamicCall {
    pub descriptor: Sym,
    /// The implementation method of a `LambdaMetafactory` call site (a lambda body or a
    /// method reference); its captured values are the popped arguments.
    pub lambda: Option<MethodRef>,
    /// A string concatenation (`StringConcatFactory`): it turns each object argument into text
    /// with the argument's `toString`.
    pub concat: bool,
}

/// One lowered instruction. Stack effects are in JVM slots (long/double take two).
#[derive(Debug, Clone)]
pub enum Insn {
    Nop,
    Const { value: ConstVal, wide: bool },
    /// `ldc` of a class literal (`C.class`): a constant whose object is the monitor that
    /// `synchronized (C.class)` and C's static synchronized methods take.
    ClassConst { class: Sym },
    Load { slot: u16, wide: bool },
    Store { slot: u16, wide: bool },
    Iinc { slot: u16 },
    ArrayLoad { wide: bool },
    ArrayStore { wide: bool },
    /// Arithmetic, conversions and comparisons: pops `args` values (widths given
    /// by the bits of `wide_args`, bit 0 = deepest), pushes a result if `result`.
    Op { args: u8, wide_args: u8, result: Option<bool> },
    Pop,
    Pop2,
    Dup,
    DupX1,
    DupX2,
    Dup2,
    Dup2X1,
    Dup2X2,
    Swap,
    // References are interned (`crate::interned`): an instruction is 16 bytes.
    GetField(&'static FieldRef),
    PutField(&'static FieldRef),
    GetStatic(&'static FieldRef),
    PutStatic(&'static FieldRef),
    Invoke { kind: InvokeKind, method: &'static MethodRef },
    InvokeDynamic(&'static DynamicCall),
    New { class: Sym },
    /// `newarray`/`anewarray` (dims = 1) and `multianewarray`.
    NewArray { dims: u8 },
    ArrayLength,
    InstanceOf,
    CheckCast,
    Athrow,
    MonitorEnter,
    MonitorExit,
    Return { value: Option<bool> },
    Goto { target: u32 },
    If { kind: IfKind, target: u32 },
    /// A thin vector: a `Vec` would double the size of every instruction. The last target is
    /// the default; with `from_zero` (a `tableswitch` whose cases start at 0), the first is
    /// the case of key 0.
    Switch { targets: thin_vec::ThinVec<u32>, from_zero: bool },
    Jsr { target: u32 },
    Ret,
}

/// The shape of a synthetic method's body when it can be inlined (spec 2.4).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum InlineShape {
    GetField(FieldRef),
    GetStatic(FieldRef),
    PutField(FieldRef),
    PutStatic(FieldRef),
    Forward(MethodRef, #[serde(with = "invoke_kind_serde")] InvokeKind),
}

mod invoke_kind_serde {
    use super::InvokeKind;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(k: &InvokeKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match k {
            InvokeKind::Virtual => "virtual",
            InvokeKind::Special => "special",
            InvokeKind::Static => "static",
            InvokeKind::Interface => "interface",
        })
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<InvokeKind, D::Error> {
        let s = String::deserialize(d)?;
        Ok(match s.as_str() {
            "special" => InvokeKind::Special,
            "static" => InvokeKind::Static,
            "interface" => InvokeKind::Interface,
            _ => InvokeKind::Virtual,
        })
    }
}

/// A method body, lowered.
#[derive(Debug, Clone)]
pub struct Body {
    pub insns: Vec<Insn>,
    /// Source line of each instruction (0 when unknown).
    pub lines: Vec<u32>,
    pub max_locals: u16,
    /// The exception table, in instruction indexes, in the class file's order.
    pub handlers: Vec<Handler>,
}

impl Body {
    /// Every store into a field typed `descriptor` accepts (`putfield`, `putstatic`), with the
    /// index of the instruction before it, which often made the value stored.
    pub fn field_stores<'b>(
        &'b self,
        descriptor: impl Fn(&str) -> bool + 'b,
    ) -> impl Iterator<Item = (&'static FieldRef, Option<usize>)> + 'b {
        self.insns.iter().enumerate().filter_map(move |(i, insn)| match insn {
            Insn::PutField(f) | Insn::PutStatic(f) if descriptor(f.descriptor.as_str()) => Some((*f, i.checked_sub(1))),
            _ => None,
        })
    }

    /// Whether the body reads field `name` named through `class` (`getfield`, `getstatic`).
    pub fn reads_field(&self, class: Sym, name: Sym) -> bool {
        self.insns.iter().any(|i| matches!(i, Insn::GetField(f) | Insn::GetStatic(f) if f.class == class && f.name == name))
    }

    /// The instruction at or before `at` that pushed the value instruction `at` leaves on the
    /// stack, looking through the casts applied to it and the no-ops kotlinc leaves where it
    /// inlined a function (`observable`).
    pub fn before_casts(&self, mut at: usize) -> usize {
        while at > 0 && matches!(self.insns[at], Insn::CheckCast | Insn::Nop) {
            at -= 1;
        }
        at
    }

    /// The call made by instruction `at`, if it is one.
    pub fn call_at(&self, at: Option<usize>) -> Option<&'static MethodRef> {
        match at.map(|i| &self.insns[i]) {
            Some(Insn::Invoke { method, .. }) => Some(*method),
            _ => None,
        }
    }

    /// The distinct classes the body allocates with `new`, in order of first appearance.
    pub fn allocated_classes(&self) -> Vec<Sym> {
        let mut classes: Vec<Sym> = Vec::new();
        for insn in &self.insns {
            if let Insn::New { class } = insn {
                if !classes.contains(class) {
                    classes.push(*class);
                }
            }
        }
        classes
    }
}

/// An exception handler: instructions `start..end` are covered, `target` is the handler's
/// first instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handler {
    pub start: u32,
    pub end: u32,
    pub target: u32,
}

/// A method of an analysed class.
#[derive(Debug, Clone)]
pub struct Method {
    pub header: MethodHeader,
    pub body: Option<Body>,
    /// Parameter names by formal index (`this` first for instance methods), from
    /// the LocalVariableTable when present.
    pub formal_names: Vec<Sym>,
    /// Slot of each formal.
    pub formal_slots: Vec<u16>,
    /// First line of the method (for reporting methods without accesses lines).
    pub first_line: u32,
    pub inline_shape: Option<InlineShape>,
    /// The annotations on its parameters typed as a scheduler or a dispatcher, by parameter
    /// index (a dependency injector's qualifiers: `@IoDispatcher io: CoroutineDispatcher`).
    pub scheduler_qualifiers: thin_vec::ThinVec<(u8, Annotation)>,
}

/// An analysed class: header plus method bodies.
#[derive(Debug, Clone)]
pub struct Class {
    /// Shared with the class table.
    pub header: std::sync::Arc<ClassHeader>,
    pub methods: Vec<Method>,
    /// What its code refers to (empty when the bodies were not lowered).
    pub references: CodeReferences,
}

/// The members a class's code names, gathered while its bodies are lowered (each
/// constant-pool reference is looked at once there; a member two entries name is listed
/// twice): what a module needs of its upstream modules is found from them (`context`).
#[derive(Debug, Clone, Default)]
pub struct CodeReferences {
    /// The methods its invoke instructions name.
    pub methods: Vec<&'static MethodRef>,
    /// The fields its field instructions name.
    pub fields: Vec<&'static FieldRef>,
    /// Each virtual or interface call with each other class its body allocates: on an object
    /// of that class (if it is a subtype), the call may run that class's method.
    pub dispatched: Vec<(Sym, &'static MethodRef)>,
}
