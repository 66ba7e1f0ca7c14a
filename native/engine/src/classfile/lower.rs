//! Lowers a cafebabe parse tree into the engine's model (`model.rs`).

use std::borrow::Cow;
use std::cell::RefCell;

use cafebabe::attributes::{
    Annotation as CbAnnotation, AnnotationElementValue, AttributeData, AttributeInfo, CodeData,
};
use cafebabe::bytecode::{ByteCode, Opcode};
use cafebabe::constant_pool::{BootstrapArgument, LiteralConstant, Loadable, MemberKind, MemberRef};
use cafebabe::{ClassFile, FieldAccessFlags, MethodInfo};

use super::descriptor::{method_descriptor_text, param_widths};
use super::inline_lines::InlineLines;
use super::model::*;
use crate::fxhash::FxHashMap;
use crate::interned;
use crate::sym::Sym;

thread_local! {
    /// Names already interned for the class being lowered, keyed by the address of
    /// the borrowed string in the class bytes (constant pool entries repeat a lot).
    static NAME_CACHE: std::cell::RefCell<crate::fxhash::FxHashMap<(usize, usize), Sym>> =
        std::cell::RefCell::new(Default::default());
}

/// Interns a constant-pool string, converting `/` to `.` when `binary`; borrowed
/// strings are cached by address for the duration of one class.
fn cached(c: &Cow<'_, str>, binary: bool) -> Sym {
    let make = || if binary { binary_name(c) } else { Sym::new(c) };
    match c {
        Cow::Borrowed(b) => {
            let key = (b.as_ptr() as usize, b.len() * 2 + usize::from(binary));
            NAME_CACHE.with(|cache| *cache.borrow_mut().entry(key).or_insert_with(make))
        }
        Cow::Owned(_) => make(),
    }
}

/// Interns an internal name (`a/b/C`) as a binary name (`a.b.C`).
pub fn binary_name(internal: &str) -> Sym {
    if internal.contains('/') {
        Sym::new(&internal.replace('/', "."))
    } else {
        Sym::new(internal)
    }
}

pub fn lower_class(cf: &ClassFile<'_>, with_bodies: bool) -> Class {
    let clear = || {
        NAME_CACHE.with(|cache| cache.borrow_mut().clear());
        METHOD_REFS.with(|cache| cache.borrow_mut().clear());
        FIELD_REFS.with(|cache| cache.borrow_mut().clear());
        REFERENCES.with(|r| *r.borrow_mut() = CodeReferences::default());
    };
    clear();
    let mut class = lower_class_uncached(cf, with_bodies);
    class.references = REFERENCES.with(|r| std::mem::take(&mut *r.borrow_mut()));
    clear();
    class
}

fn lower_class_uncached(cf: &ClassFile<'_>, with_bodies: bool) -> Class {
    let name = binary_name(&cf.this_class);
    let mut annotations = Vec::new();
    let mut kotlin_internal = false;
    let mut source_file = None;
    let mut inline_lines = InlineLines::default();
    for attr in &cf.attributes {
        match &attr.data {
            AttributeData::SourceFile(f) => source_file = Some(Sym::new(f)),
            AttributeData::SourceDebugExtension(smap) if with_bodies => inline_lines = InlineLines::parse(smap),
            AttributeData::RuntimeVisibleAnnotations(a) | AttributeData::RuntimeInvisibleAnnotations(a) => {
                kotlin_internal |= a.iter().any(declares_internal_class);
                annotations.extend(a.iter().map(lower_annotation))
            }
            _ => {}
        }
    }
    let fields = cf
        .fields
        .iter()
        .map(|f| FieldHeader {
            name: Sym::new(&f.name),
            flags: f.access_flags.bits(),
            annotations: annotations_of(&f.attributes),
        })
        .collect();
    let bootstraps = bootstraps(cf);
    let proxy = super::aidl::is_proxy(name.as_str());
    let handler_loopers = match cf.super_class.as_deref() {
        Some("android/os/Handler") => super::handler_subclass::constructor_loopers(cf),
        _ => vec![None; cf.methods.len()],
    };
    let methods: Vec<Method> =
        cf.methods.iter().zip(handler_loopers).map(|(m, looper)| lower_method(m, with_bodies, &bootstraps, proxy, looper, &inline_lines)).collect();
    note_calls_on_stored_objects(cf, &methods);
    let header = ClassHeader {
        name,
        flags: cf.access_flags.bits(),
        super_class: cf.super_class.as_ref().map(|s| binary_name(s)),
        interfaces: cf.interfaces.iter().map(|i| binary_name(i)).collect(),
        annotations,
        fields,
        methods: methods.iter().map(|m| m.header.clone()).collect(),
        source_file,
        kotlin_internal,
    };
    Class { header: std::sync::Arc::new(header), methods, references: CodeReferences::default() }
}

fn annotations_of(attrs: &[AttributeInfo<'_>]) -> Vec<Annotation> {
    let mut out = Vec::new();
    for attr in attrs {
        if let AttributeData::RuntimeVisibleAnnotations(a) | AttributeData::RuntimeInvisibleAnnotations(a) = &attr.data {
            out.extend(a.iter().map(lower_annotation));
        }
    }
    out
}

/// The type kotlinc marks its classes with; its protocol-buffer strings (`d1`, `d2`) are read
/// once, in [`declares_internal_class`], and not kept.
const KOTLIN_METADATA: &str = "kotlin/Metadata";

fn is_kotlin_metadata(a: &CbAnnotation<'_>) -> bool {
    matches!(&a.type_descriptor.field_type, cafebabe::descriptors::FieldType::Object(c) if &**c == KOTLIN_METADATA)
}

/// Whether `a` is Kotlin metadata declaring its class `internal` (see `kotlin_metadata`).
fn declares_internal_class(a: &CbAnnotation<'_>) -> bool {
    if !is_kotlin_metadata(a) {
        return false;
    }
    let element = |name: &str| a.elements.iter().find(|e| e.name == name).map(|e| &e.value);
    let kind = match element("k") {
        Some(AnnotationElementValue::IntConstant(k)) => *k,
        _ => return false,
    };
    let d1: Vec<&str> = match element("d1") {
        Some(AnnotationElementValue::ArrayValue(items)) => items
            .iter()
            .filter_map(|v| match v {
                AnnotationElementValue::StringConstant(s) => Some(&**s),
                _ => None,
            })
            .collect(),
        _ => return false,
    };
    super::kotlin_metadata::declares_internal_class(kind, &d1)
}

fn lower_annotation(a: &CbAnnotation<'_>) -> Annotation {
    let type_name = match &a.type_descriptor.field_type {
        cafebabe::descriptors::FieldType::Object(c) => binary_name(c),
        other => Sym::new(&other.to_string()),
    };
    let metadata = is_kotlin_metadata(a);
    let elements = a
        .elements
        .iter()
        .filter(|e| !(metadata && matches!(&*e.name, "d1" | "d2")))
        .map(|e| {
            let value = match &e.value {
                AnnotationElementValue::BooleanConstant(b) => AnnotationValue::Bool(*b != 0),
                AnnotationElementValue::StringConstant(s) => AnnotationValue::Str(s.to_string()),
                AnnotationElementValue::EnumConstant { const_name, .. } => AnnotationValue::Enum(const_name.to_string()),
                AnnotationElementValue::ArrayValue(items) => string_array(items),
                _ => AnnotationValue::Other,
            };
            (Sym::new(&e.name), value)
        })
        .collect();
    Annotation { type_name, elements, element_count: a.elements.len().min(255) as u8 }
}

/// A string array element (`@SuppressLint({"a", "b"})`); other arrays are not read.
fn string_array(items: &[AnnotationElementValue<'_>]) -> AnnotationValue {
    let strings: Option<Vec<String>> = items
        .iter()
        .map(|v| match v {
            AnnotationElementValue::StringConstant(s) => Some(s.to_string()),
            _ => None,
        })
        .collect();
    strings.map_or(AnnotationValue::Other, AnnotationValue::Strs)
}

/// What an `invokedynamic` call site's bootstrap method makes.
#[derive(Clone, Copy, Default)]
struct Bootstrap {
    /// The implementation method, for `LambdaMetafactory`'s (`metafactory` or
    /// `altMetafactory`: the second static argument is the implementation).
    lambda: Option<MethodRef>,
    /// `StringConcatFactory`'s: a string concatenation.
    concat: bool,
}

/// Per bootstrap method of the class, what it makes.
fn bootstraps(cf: &ClassFile<'_>) -> Vec<Bootstrap> {
    let entries = cf.attributes.iter().find_map(|a| match &a.data {
        AttributeData::BootstrapMethods(entries) => Some(entries),
        _ => None,
    });
    let Some(entries) = entries else { return Vec::new() };
    entries
        .iter()
        .map(|e| match &*e.method.class_name {
            "java/lang/invoke/LambdaMetafactory" => match e.arguments.get(1) {
                Some(BootstrapArgument::MethodHandle(h)) if !matches!(h.member_kind, MemberKind::Field) => Bootstrap {
                    lambda: Some(MethodRef {
                        class: binary_name(&h.class_name),
                        name: Sym::new(&h.member_ref.name),
                        descriptor: Sym::new(&h.member_ref.descriptor),
                    }),
                    concat: false,
                },
                _ => Bootstrap::default(),
            },
            "java/lang/invoke/StringConcatFactory" => Bootstrap { lambda: None, concat: true },
            _ => Bootstrap::default(),
        })
        .collect()
}

/// `proxy`: the method is an AIDL proxy's, whose code says whether its call is one-way (read
/// even without bodies: see `input::decode`). `handler_looper`: the looper the method makes
/// its handler on, for a constructor of a direct `Handler` subclass.
fn lower_method(
    m: &MethodInfo<'_>,
    with_bodies: bool,
    bootstraps: &[Bootstrap],
    proxy: bool,
    handler_looper: Option<HandlerLooper>,
    inline_lines: &InlineLines,
) -> Method {
    let name = cached(&m.name, false);
    let descriptor = Sym::new(&method_descriptor_text(&m.descriptor));
    let flags = m.access_flags.bits();
    let mut annotations = Vec::new();
    let mut param_inject_prop = false;
    let mut scheduler_qualifiers = thin_vec::ThinVec::new();
    let mut code: Option<&CodeData<'_>> = None;
    for attr in &m.attributes {
        match &attr.data {
            AttributeData::RuntimeVisibleAnnotations(a) | AttributeData::RuntimeInvisibleAnnotations(a) => {
                annotations.extend(a.iter().map(lower_annotation))
            }
            AttributeData::RuntimeVisibleParameterAnnotations(ps)
            | AttributeData::RuntimeInvisibleParameterAnnotations(ps) => {
                if ps.iter().flat_map(|p| p.annotations.iter()).any(|a| lower_annotation(a).matches("InjectProp")) {
                    param_inject_prop = true;
                }
                let types = crate::classfile::descriptor::params(descriptor.as_str());
                for (i, (p, _)) in ps.iter().zip(types).enumerate().filter(|(_, (_, t))| crate::analysis::kept_schedulers::is_scheduler_descriptor(t)) {
                    scheduler_qualifiers.extend(p.annotations.iter().map(|a| (i as u8, lower_annotation(a))));
                }
            }
            AttributeData::Code(c) => code = Some(c),
            _ => {}
        }
    }
    let sends_oneway = proxy && code.and_then(|c| c.bytecode.as_ref()).is_some_and(super::aidl::sends_oneway);
    let posts_to_handler = (name.as_str(), descriptor.as_str()) == super::handler_executor::EXECUTE
        && code.and_then(|c| c.bytecode.as_ref()).is_some_and(super::handler_executor::posts_to_handler);
    let posted_field = posts_to_handler
        .then(|| code.and_then(|c| c.bytecode.as_ref()).and_then(super::handler_executor::posted_field))
        .flatten()
        .map(|f| Sym::new(&f));
    let is_static = flags & ACC_STATIC != 0;
    let runs_its_task =
        code.and_then(|c| c.bytecode.as_ref()).is_some_and(|b| super::direct_executor::runs_its_task(descriptor.as_str(), is_static, b));
    let header = MethodHeader {
        name,
        descriptor,
        flags,
        annotations,
        param_inject_prop,
        sends_oneway,
        posts_to_handler,
        posted_field,
        runs_its_task,
        handler_looper,
    };

    // Formals: `this` (instance methods) then the declared parameters.
    let mut formal_slots = Vec::new();
    let mut slot: u16 = 0;
    if !is_static {
        formal_slots.push(0);
        slot = 1;
    }
    for wide in param_widths(descriptor.as_str()) {
        formal_slots.push(slot);
        slot += if wide { 2 } else { 1 };
    }
    let mut formal_names: Vec<Sym> = (0..formal_slots.len())
        .map(|i| {
            if !is_static && i == 0 {
                *THIS
            } else {
                arg_name(if is_static { i } else { i - 1 })
            }
        })
        .collect();

    let mut body = None;
    let mut first_line = 0;
    let mut inline_shape = None;
    if let Some(c) = code {
        for attr in &c.attributes {
            if let AttributeData::LocalVariableTable(vars) = &attr.data {
                for v in vars.iter().filter(|v| v.start_pc == 0) {
                    if let Some(i) = formal_slots.iter().position(|&s| s == v.index) {
                        formal_names[i] = cached(&v.name, false);
                    }
                }
            }
        }
        if with_bodies {
            if let Some(bc) = &c.bytecode {
                let b = lower_body(c, bc, bootstraps, inline_lines);
                first_line = b.lines.iter().copied().find(|&l| l != 0).unwrap_or(0);
                if name.as_str().contains('$') || flags & (ACC_SYNTHETIC | ACC_BRIDGE) != 0 {
                    inline_shape = inline_shape_of(&b, formal_slots.len());
                }
                body = Some(b);
            }
        }
    }
    Method { header, body, formal_names, formal_slots, first_line, inline_shape, scheduler_qualifiers }
}

type MemberKey = (usize, usize, usize);

thread_local! {
    /// Interned member references of the class being lowered, keyed by the addresses of
    /// their borrowed strings: one lookup per instruction instead of three and an interning.
    static METHOD_REFS: RefCell<FxHashMap<MemberKey, &'static MethodRef>> = RefCell::new(Default::default());
    static FIELD_REFS: RefCell<FxHashMap<MemberKey, &'static FieldRef>> = RefCell::new(Default::default());
    /// The references of the class being lowered: each member reference is added when it
    /// is first met (a cache miss), the calls paired with allocations per body.
    static REFERENCES: RefCell<CodeReferences> = RefCell::new(Default::default());
}

fn field_ref(r: &MemberRef<'_>) -> &'static FieldRef {
    cached_member(&FIELD_REFS, r, |class, name, descriptor| {
        let f = interned::field_ref(FieldRef { class, name, descriptor });
        REFERENCES.with(|refs| refs.borrow_mut().fields.push(f));
        f
    })
}

fn method_ref(r: &MemberRef<'_>) -> &'static MethodRef {
    cached_member(&METHOD_REFS, r, |class, name, descriptor| {
        let m = interned::method_ref(MethodRef { class, name, descriptor });
        REFERENCES.with(|refs| refs.borrow_mut().methods.push(m));
        m
    })
}

/// A member reference, made (by `intern`) only on the first meeting of its constant-pool
/// strings in the class.
fn cached_member<T: 'static>(
    cache: &'static std::thread::LocalKey<RefCell<FxHashMap<MemberKey, &'static T>>>,
    r: &MemberRef<'_>,
    intern: impl Fn(Sym, Sym, Sym) -> &'static T,
) -> &'static T {
    let make = || {
        intern(cached(&r.class_name, true), cached(&r.name_and_type.name, false), cached(&r.name_and_type.descriptor, false))
    };
    match (&r.class_name, &r.name_and_type.name, &r.name_and_type.descriptor) {
        (Cow::Borrowed(c), Cow::Borrowed(n), Cow::Borrowed(d)) => {
            let key = (c.as_ptr() as usize, n.as_ptr() as usize, d.as_ptr() as usize ^ (d.len() << 48));
            if let Some(m) = cache.with(|cache| cache.borrow().get(&key).copied()) {
                return m;
            }
            let m = make();
            cache.with(|cache| cache.borrow_mut().insert(key, m));
            m
        }
        _ => make(),
    }
}

fn lower_body(code: &CodeData<'_>, bc: &ByteCode<'_>, bootstraps: &[Bootstrap], inline_lines: &InlineLines) -> Body {
    let offsets: Vec<usize> = bc.opcodes.iter().map(|(o, _)| *o).collect();
    let index_of = |from: usize, jump: i32| -> u32 {
        let target = (from as i64 + jump as i64).max(0) as usize;
        match offsets.binary_search(&target) {
            Ok(i) => i as u32,
            Err(i) => i.min(offsets.len().saturating_sub(1)) as u32,
        }
    };
    let mut line_table: Vec<(usize, u32)> = Vec::new();
    for attr in &code.attributes {
        if let AttributeData::LineNumberTable(entries) = &attr.data {
            line_table.extend(entries.iter().map(|e| (e.start_pc as usize, inline_lines.call_site(e.line_number as u32))));
        }
    }
    line_table.sort();
    let mut insns = Vec::with_capacity(bc.opcodes.len());
    let mut lines = Vec::with_capacity(bc.opcodes.len());
    // Instructions come in increasing pc order: walk the line table alongside.
    let mut next_entry = 0;
    let mut line = 0;
    let mut allocates = false;
    for (pc, op) in &bc.opcodes {
        while next_entry < line_table.len() && line_table[next_entry].0 <= *pc {
            line = line_table[next_entry].1;
            next_entry += 1;
        }
        allocates |= matches!(op, Opcode::New(_));
        insns.push(lower_opcode(*pc, op, &index_of, bootstraps));
        lines.push(line);
    }
    // Handler pcs are instruction boundaries in a verified class file; a bad one is ignored.
    let at = |pc: u16| offsets.binary_search(&(pc as usize)).ok().map(|i| i as u32);
    let handlers = code
        .exception_table
        .iter()
        .filter_map(|h| {
            let end = if h.end_pc as usize >= code.code.len() { Some(offsets.len() as u32) } else { at(h.end_pc) };
            Some(Handler { start: at(h.start_pc)?, end: end?, target: at(h.handler_pc)? })
        })
        .filter(|h| h.start < h.end)
        .collect();
    let body = Body { insns, lines, max_locals: code.max_locals, handlers };
    // Most bodies allocate nothing: only the others are read again.
    if allocates {
        note_dispatched_calls(&body);
    }
    body
}

/// Pairs, for [`CodeReferences::dispatched`], the virtual and interface calls of a body with
/// the other classes it allocates.
fn note_dispatched_calls(body: &Body) {
    let allocated = body.allocated_classes();
    REFERENCES.with(|refs| {
        let dispatched = &mut refs.borrow_mut().dispatched;
        for insn in &body.insns {
            if let Insn::Invoke { method, kind: InvokeKind::Virtual | InvokeKind::Interface } = insn {
                dispatched.extend(allocated.iter().filter(|&&c| c != method.class).map(|&c| (c, *method)));
            }
        }
    });
}

/// Pairs, for [`CodeReferences::dispatched`], the virtual and interface calls of a class named
/// through the declared type of one of its own private or final fields with the classes of the
/// new objects its code stores there, directly, through a conditional, or by way of one of its
/// own static fields (see `analysis::field_classes`): such a call on the field may run that
/// class's method (field-receiver dispatch).
fn note_calls_on_stored_objects(cf: &ClassFile<'_>, methods: &[Method]) {
    use crate::analysis::field_classes::{declared_class, returned_static, value_sources, Source};
    let bodies: Vec<&Body> = methods.iter().filter_map(|m| m.body.as_ref()).collect();
    let this = binary_name(&cf.this_class);
    let own_field = |f: &FieldRef| {
        f.class == this
            && cf.fields.iter().any(|d| d.name == f.name.as_str() && d.access_flags.intersects(FieldAccessFlags::PRIVATE | FieldAccessFlags::FINAL))
    };
    // A static method of the class that only returns one of its static fields.
    let static_getter = |m: &MethodRef| {
        let own = methods.iter().find(|o| m.class == this && o.header.name == m.name && o.header.descriptor == m.descriptor)?;
        returned_static(this, own.header.flags, own.body.as_ref()?)
    };
    // The stores into its own fields (body, field, index), its static fields' first: a store
    // of what a static holds then finds the classes stored into that static.
    let mut stores: Vec<(usize, &FieldRef, usize)> = bodies
        .iter()
        .enumerate()
        .flat_map(|(b, body)| body.field_stores(|d| d.starts_with('L')).map(move |(f, before)| (b, f, before.map_or(0, |i| i + 1))))
        .filter(|(_, f, _)| own_field(f))
        .collect();
    if stores.is_empty() {
        return;
    }
    stores.sort_by_key(|&(b, _, store)| !matches!(bodies[b].insns[store], Insn::PutStatic(_)));
    // Each body's jump targets, once they are needed.
    let mut targets: Vec<Option<Vec<bool>>> = vec![None; bodies.len()];
    // (field, class of a new object stored there)
    let mut made: Vec<(FieldRef, Sym)> = Vec::new();
    for (b, f, store) in stores {
        let body = bodies[b];
        // The constructor just before, even where a jump also leads to the store.
        let before = store.checked_sub(1);
        let mut classes: Vec<Sym> = body.call_at(before).filter(|m| m.name.as_str() == "<init>").map(|m| m.class).into_iter().collect();
        for source in value_sources(body, store, &mut targets[b], &static_getter).into_iter().flatten() {
            match source {
                Source::New(class) => classes.push(class),
                Source::Null | Source::Lambda(_) => {}
                Source::Static(s) => classes.extend(made.iter().filter(|(g, _)| *g == s).map(|(_, c)| *c)),
            }
        }
        for class in classes {
            if !made.contains(&(*f, class)) {
                made.push((*f, class));
            }
        }
    }
    // (declared type, class stored)
    let mut stored: Vec<(Sym, Sym)> = Vec::new();
    for (f, class) in made {
        if let Some(declared) = declared_class(f.descriptor) {
            if declared != class && !stored.contains(&(declared, class)) {
                stored.push((declared, class));
            }
        }
    }
    if stored.is_empty() {
        return;
    }
    REFERENCES.with(|refs| {
        let dispatched = &mut refs.borrow_mut().dispatched;
        for insn in bodies.iter().flat_map(|b| &b.insns) {
            if let Insn::Invoke { method, kind: InvokeKind::Virtual | InvokeKind::Interface } = insn {
                let classes: Vec<Sym> = stored.iter().filter(|(declared, _)| *declared == method.class).map(|&(_, c)| c).collect();
                if classes.is_empty() {
                    continue;
                }
                dispatched.extend(classes.iter().map(|&c| (c, *method)));
                // What a queue skeleton's method runs (see `models::queue_skeleton_primitive`).
                if let Some(primitive) = crate::analysis::models::queue_skeleton_primitive(method) {
                    let primitive = crate::interned::method_ref(primitive);
                    dispatched.extend(classes.iter().map(|&c| (c, primitive)));
                }
            }
        }
    });
}

const N: bool = false;
const W: bool = true;

fn op(args: &[bool], result: Option<bool>) -> Insn {
    let mut wide_args = 0u8;
    for (i, w) in args.iter().enumerate() {
        if *w {
            wide_args |= 1 << i;
        }
    }
    Insn::Op { args: args.len() as u8, wide_args, result }
}

fn int(v: i32) -> Insn {
    Insn::Const { value: ConstVal::Int(v), wide: false }
}

fn lower_opcode(pc: usize, o: &Opcode<'_>, index_of: &dyn Fn(usize, i32) -> u32, bootstraps: &[Bootstrap]) -> Insn {
    use Opcode::*;
    let other = |wide| Insn::Const { value: ConstVal::Other, wide };
    match o {
        Nop | Breakpoint | Impdep1 | Impdep2 => Insn::Nop,
        AconstNull => Insn::Const { value: ConstVal::Null, wide: false },
        IconstM1 => int(-1),
        Iconst0 => int(0),
        Iconst1 => int(1),
        Iconst2 => int(2),
        Iconst3 => int(3),
        Iconst4 => int(4),
        Iconst5 => int(5),
        Bipush(v) => int(*v as i32),
        Sipush(v) => int(*v as i32),
        Lconst0 | Lconst1 | Dconst0 | Dconst1 => other(true),
        Fconst0 | Fconst1 | Fconst2 => other(false),
        Ldc(l) | LdcW(l) => match l {
            Loadable::LiteralConstant(LiteralConstant::Integer(v)) => int(*v),
            Loadable::ClassInfo(c) => Insn::ClassConst { class: cached(c, true) },
            _ => other(false),
        },
        Ldc2W(_) => other(true),
        Iload(s) | Fload(s) | Aload(s) => Insn::Load { slot: *s, wide: false },
        Lload(s) | Dload(s) => Insn::Load { slot: *s, wide: true },
        Istore(s) | Fstore(s) | Astore(s) => Insn::Store { slot: *s, wide: false },
        Lstore(s) | Dstore(s) => Insn::Store { slot: *s, wide: true },
        Iinc(s, _) => Insn::Iinc { slot: *s },
        Iaload | Faload | Aaload | Baload | Caload | Saload => Insn::ArrayLoad { wide: false },
        Laload | Daload => Insn::ArrayLoad { wide: true },
        Iastore | Fastore | Aastore | Bastore | Castore | Sastore => Insn::ArrayStore { wide: false },
        Lastore | Dastore => Insn::ArrayStore { wide: true },
        Pop => Insn::Pop,
        Pop2 => Insn::Pop2,
        Dup => Insn::Dup,
        DupX1 => Insn::DupX1,
        DupX2 => Insn::DupX2,
        Dup2 => Insn::Dup2,
        Dup2X1 => Insn::Dup2X1,
        Dup2X2 => Insn::Dup2X2,
        Swap => Insn::Swap,
        Iadd | Isub | Imul | Idiv | Irem | Iand | Ior | Ixor | Ishl | Ishr | Iushr | Fadd | Fsub | Fmul
        | Fdiv | Frem | Fcmpl | Fcmpg => op(&[N, N], Some(N)),
        Ladd | Lsub | Lmul | Ldiv | Lrem | Land | Lor | Lxor | Dadd | Dsub | Dmul | Ddiv | Drem => {
            op(&[W, W], Some(W))
        }
        Lshl | Lshr | Lushr => op(&[W, N], Some(W)),
        Lcmp | Dcmpl | Dcmpg => op(&[W, W], Some(N)),
        Ineg | Fneg | I2b | I2c | I2s | I2f | F2i => op(&[N], Some(N)),
        Lneg | Dneg | L2d | D2l => op(&[W], Some(W)),
        I2l | I2d | F2l | F2d => op(&[N], Some(W)),
        L2i | L2f | D2i | D2f => op(&[W], Some(N)),
        Getfield(r) => Insn::GetField(field_ref(r)),
        Putfield(r) => Insn::PutField(field_ref(r)),
        Getstatic(r) => Insn::GetStatic(field_ref(r)),
        Putstatic(r) => Insn::PutStatic(field_ref(r)),
        Invokevirtual(r) => Insn::Invoke { kind: InvokeKind::Virtual, method: method_ref(r) },
        Invokespecial(r) => Insn::Invoke { kind: InvokeKind::Special, method: method_ref(r) },
        Invokestatic(r) => Insn::Invoke { kind: InvokeKind::Static, method: method_ref(r) },
        Invokeinterface(r, _) => Insn::Invoke { kind: InvokeKind::Interface, method: method_ref(r) },
        Invokedynamic(d) => {
            let bootstrap = bootstraps.get(d.attr_index as usize).copied().unwrap_or_default();
            Insn::InvokeDynamic(interned::dynamic_call(DynamicCall {
                descriptor: cached(&d.name_and_type.descriptor, false),
                lambda: bootstrap.lambda,
                concat: bootstrap.concat,
            }))
        }
        New(c) => Insn::New { class: cached(c, true) },
        Newarray(_) | Anewarray(_) => Insn::NewArray { dims: 1 },
        Multianewarray(_, dims) => Insn::NewArray { dims: *dims },
        Arraylength => Insn::ArrayLength,
        Instanceof(_) => Insn::InstanceOf,
        Checkcast(_) => Insn::CheckCast,
        Athrow => Insn::Athrow,
        Monitorenter => Insn::MonitorEnter,
        Monitorexit => Insn::MonitorExit,
        Ireturn | Freturn | Areturn => Insn::Return { value: Some(false) },
        Lreturn | Dreturn => Insn::Return { value: Some(true) },
        Return => Insn::Return { value: None },
        Goto(j) => Insn::Goto { target: index_of(pc, *j) },
        Jsr(j) => Insn::Jsr { target: index_of(pc, *j) },
        Ret(_) => Insn::Ret,
        Ifeq(j) => Insn::If { kind: IfKind::Zero(Cmp::Eq), target: index_of(pc, *j) },
        Ifne(j) => Insn::If { kind: IfKind::Zero(Cmp::Ne), target: index_of(pc, *j) },
        Iflt(j) | Ifge(j) | Ifgt(j) | Ifle(j) => Insn::If { kind: IfKind::Zero(Cmp::Other), target: index_of(pc, *j) },
        Ifnull(j) => Insn::If { kind: IfKind::Null(Cmp::Eq), target: index_of(pc, *j) },
        Ifnonnull(j) => Insn::If { kind: IfKind::Null(Cmp::Ne), target: index_of(pc, *j) },
        IfIcmpeq(j) | IfAcmpeq(j) => Insn::If { kind: IfKind::Two(Cmp::Eq), target: index_of(pc, *j) },
        IfIcmpne(j) | IfAcmpne(j) => Insn::If { kind: IfKind::Two(Cmp::Ne), target: index_of(pc, *j) },
        IfIcmplt(j) | IfIcmpge(j) | IfIcmpgt(j) | IfIcmple(j) => {
            Insn::If { kind: IfKind::Two(Cmp::Other), target: index_of(pc, *j) }
        }
        Tableswitch(t) => {
            let mut targets: Vec<u32> = t.jumps.iter().map(|j| index_of(pc, *j)).collect();
            targets.push(index_of(pc, t.default));
            Insn::Switch { targets: targets.into(), from_zero: t.low == 0 }
        }
        Lookupswitch(t) => {
            let mut targets: Vec<u32> = t.match_offsets.iter().map(|(_, j)| index_of(pc, *j)).collect();
            targets.push(index_of(pc, t.default));
            Insn::Switch { targets: targets.into(), from_zero: false }
        }
    }
}

/// Recognises synthetic accessor/bridge bodies of the form
/// `load formals in order; one field access or call; [dup]; return` (spec 2.4).
fn inline_shape_of(body: &Body, formals: usize) -> Option<InlineShape> {
    let mut next_formal = 0usize;
    let mut core: Option<InlineShape> = None;
    for insn in &body.insns {
        match insn {
            Insn::Load { .. } if core.is_none() => next_formal += 1,
            Insn::Load { .. } => return None,
            Insn::Dup | Insn::DupX1 | Insn::DupX2 | Insn::Dup2X1 | Insn::Dup2 | Insn::CheckCast => {}
            Insn::GetField(f) if core.is_none() => core = Some(InlineShape::GetField(**f)),
            Insn::GetStatic(f) if core.is_none() => core = Some(InlineShape::GetStatic(**f)),
            Insn::PutField(f) if core.is_none() => core = Some(InlineShape::PutField(**f)),
            Insn::PutStatic(f) if core.is_none() => core = Some(InlineShape::PutStatic(**f)),
            Insn::Invoke { kind, method } if core.is_none() => core = Some(InlineShape::Forward(**method, *kind)),
            Insn::Return { .. } => return if next_formal <= formals { core } else { None },
            _ => return None,
        }
    }
    None
}


/// The name of an instance method's receiver, interned once.
static THIS: once_cell::sync::Lazy<Sym> = once_cell::sync::Lazy::new(|| Sym::new("this"));

/// `argN`: the name of a parameter without debug information.
fn arg_name(i: usize) -> Sym {
    static NAMES: once_cell::sync::Lazy<Vec<Sym>> =
        once_cell::sync::Lazy::new(|| (0..32).map(|i| Sym::new(&format!("arg{i}"))).collect());
    NAMES.get(i).copied().unwrap_or_else(|| Sym::new(&format!("arg{i}")))
}
