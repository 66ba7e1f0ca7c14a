//! What the class reader notes of the code the AIDL compiler generates: for an interface `I`,
//! the binder stub `I$Stub` a service extends and the proxy `I$Stub$Proxy` its clients call
//! through. Whether an interface method is `oneway` is written only in the proxy, as the
//! flags its method gives `IBinder.transact`.

use cafebabe::bytecode::{ByteCode, Opcode};
use cafebabe::constant_pool::{LiteralConstant, Loadable};

use crate::sym::Sym;

const STUB: &str = "$Stub";
const PROXY: &str = "$Stub$Proxy";

/// Whether a class (binary or internal name) is an AIDL proxy.
pub fn is_proxy(name: &str) -> bool {
    name.ends_with(PROXY)
}

/// The proxy of a binder stub `I$Stub`: `I$Stub$Proxy`.
pub fn proxy_of_stub(stub: Sym) -> Option<Sym> {
    stub.as_str().ends_with(STUB).then(|| Sym::new(&format!("{stub}$Proxy")))
}

/// The proxy of an AIDL interface `I`: `I$Stub$Proxy`.
pub fn proxy_of_interface(interface: Sym) -> Sym {
    Sym::new(&format!("{interface}{PROXY}"))
}

/// `IBinder.FLAG_ONEWAY`.
const FLAG_ONEWAY: i32 = 1;

/// Whether a proxy method's code sends its call one way: it calls
/// `IBinder.transact(code, data, reply, flags)` with constant flags carrying `FLAG_ONEWAY`
/// (alone, or with `FLAG_CLEAR_BUF`), every time it calls it.
pub fn sends_oneway(code: &ByteCode<'_>) -> bool {
    let mut transacts = 0;
    let mut previous: Option<&Opcode<'_>> = None;
    for (_, op) in &code.opcodes {
        if let Opcode::Invokeinterface(m, _) = op {
            if m.class_name == "android/os/IBinder"
                && m.name_and_type.name == "transact"
                && m.name_and_type.descriptor == "(ILandroid/os/Parcel;Landroid/os/Parcel;I)Z"
            {
                match previous.and_then(int_constant) {
                    Some(flags) if flags & FLAG_ONEWAY != 0 => transacts += 1,
                    _ => return false,
                }
            }
        }
        previous = Some(op);
    }
    transacts > 0
}

fn int_constant(op: &Opcode<'_>) -> Option<i32> {
    Some(match op {
        Opcode::IconstM1 => -1,
        Opcode::Iconst0 => 0,
        Opcode::Iconst1 => 1,
        Opcode::Iconst2 => 2,
        Opcode::Iconst3 => 3,
        Opcode::Iconst4 => 4,
        Opcode::Iconst5 => 5,
        Opcode::Bipush(v) => i32::from(*v),
        Opcode::Sipush(v) => i32::from(*v),
        Opcode::Ldc(Loadable::LiteralConstant(LiteralConstant::Integer(v))) | Opcode::LdcW(Loadable::LiteralConstant(LiteralConstant::Integer(v))) => *v,
        _ => return None,
    })
}
