//! Request threads (the `request_threads` extension): the objects a server hands every request
//! to, which serve concurrent requests on its request threads. Such an object is configured
//! before the first request and torn down after the last, so neither stage overlaps a request.
//! `docs/analysis.md` lists the methods.
//!
//! - Servlets and filters: the Servlet specification has a container send concurrent requests
//!   through one servlet instance, and one filter instance, unless the servlet implements
//!   `SingleThreadModel`. `init` completes before any request is handed over, and `destroy`
//!   runs once every request has left.
//! - Spring MVC controllers: a bean is a singleton unless its scope says otherwise, and one
//!   controller object serves every request mapped to it. Its dependencies are injected and its
//!   `@PostConstruct` method run before it serves any.
//!
//! For both, the setters of the object's bean properties are configuration too: containers and
//! frameworks apply configuration through them before the object serves (Tomcat's filters and
//! valves, Spring's `GenericFilterBean` and property injection, Jetty's XML configuration).

use crate::classfile::descriptor::params;
use crate::classfile::model::{AnnotationValue, ClassHeader, MethodHeader, MethodRef};
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

/// The servlet types, for `javax.servlet` and its successor `jakarta.servlet`. All are listed:
/// without the servlet API among the inputs, a servlet's known supertypes stop at the one it
/// names.
const SERVLETS: &[&str] = &[
    "javax.servlet.Servlet",
    "javax.servlet.GenericServlet",
    "javax.servlet.http.HttpServlet",
    "jakarta.servlet.Servlet",
    "jakarta.servlet.GenericServlet",
    "jakarta.servlet.http.HttpServlet",
];

const FILTERS: &[&str] = &["javax.servlet.Filter", "jakarta.servlet.Filter"];

/// "Ensures that servlets handle only one request at a time" (deprecated, but still honoured).
const SINGLE_THREAD_MODEL: &[&str] = &["javax.servlet.SingleThreadModel", "jakarta.servlet.SingleThreadModel"];

/// What the container calls for each request: `service`, the `HttpServlet` methods it
/// dispatches to (`getLastModified` is asked before `doGet`), a filter's `doFilter`.
const REQUEST_METHODS: &[&str] =
    &["service", "doGet", "doPost", "doPut", "doDelete", "doHead", "doOptions", "doTrace", "doPatch", "getLastModified", "doFilter"];

/// The Spring MVC controller stereotypes (`@RestController` is itself a `@Controller`).
const CONTROLLERS: &[&str] = &["org.springframework.stereotype.Controller", "org.springframework.web.bind.annotation.RestController"];

/// The annotations mapping requests to a controller's handler methods.
const REQUEST_MAPPINGS: &[&str] = &[
    "org.springframework.web.bind.annotation.RequestMapping",
    "org.springframework.web.bind.annotation.GetMapping",
    "org.springframework.web.bind.annotation.PostMapping",
    "org.springframework.web.bind.annotation.PutMapping",
    "org.springframework.web.bind.annotation.DeleteMapping",
    "org.springframework.web.bind.annotation.PatchMapping",
];

/// Scopes that give each request or session an object of its own.
const SCOPED: &[&str] = &["org.springframework.web.context.annotation.RequestScope", "org.springframework.web.context.annotation.SessionScope"];

/// Methods a bean container runs while it sets the object up or tears it down.
const LIFE_CYCLE_ANNOTATIONS: &[&str] = &[
    "javax.annotation.PostConstruct",
    "jakarta.annotation.PostConstruct",
    "javax.annotation.PreDestroy",
    "jakarta.annotation.PreDestroy",
    "org.springframework.beans.factory.annotation.Autowired",
    "org.springframework.beans.factory.annotation.Value",
    "javax.inject.Inject",
    "jakarta.inject.Inject",
];

/// What serves requests in a class, when it serves them several at once.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Server {
    /// A servlet or a filter of the analysed code (not one of the API's own types).
    Servlet,
    /// A singleton Spring MVC controller.
    Controller,
}

impl Server {
    pub fn of(table: &ClassTable, class: Sym) -> Option<Server> {
        let named = class.as_str();
        let api_type = |c: &str| SERVLETS.contains(&c) || FILTERS.contains(&c);
        // One walk of the supertypes: a servlet or filter type, not one of the API's own.
        let servlet = !api_type(named)
            && table.find_in_supertypes(class, |c| api_type(c.as_str()).then_some(())).is_some()
            && !table.is_subtype_of_any(class, SINGLE_THREAD_MODEL);
        if servlet {
            return Some(Server::Servlet);
        }
        let header = table.get(class)?;
        let annotated = |names: &[&str]| names.iter().any(|n| header.has_annotation(n));
        (annotated(CONTROLLERS) && !annotated(SCOPED) && is_singleton(header)).then_some(Server::Controller)
    }

    /// Whether `m`, a method of a class this serves in, is a request method: for a servlet or
    /// filter, one of [`REQUEST_METHODS`] whose first parameter is a type of the servlet API (a
    /// request), so that a helper of the same name is not one; for a controller, a method with
    /// a request mapping.
    pub fn serves(self, table: &ClassTable, m: &MethodRef) -> bool {
        match self {
            Server::Servlet => REQUEST_METHODS.contains(&m.name.as_str()) && takes_servlet_type_first(m),
            Server::Controller => method_annotated(table, m, REQUEST_MAPPINGS),
        }
    }

    /// What runs before the first request or after the last: a servlet's or filter's `init()`,
    /// `init(ServletConfig)`, `init(FilterConfig)`, `destroy()`; a bean's injection and
    /// life-cycle methods (`@Autowired`, `@PostConstruct`, `afterPropertiesSet()`, ...); and for
    /// both a bean property's setter (`setName(value)`, one parameter, returning nothing).
    pub fn configures(self, table: &ClassTable, m: &MethodRef) -> bool {
        let (name, descriptor) = (m.name.as_str(), m.descriptor.as_str());
        let life_cycle = match self {
            Server::Servlet => match name {
                "init" => descriptor == "()V" || takes_servlet_type_first(m),
                "destroy" => descriptor == "()V",
                _ => false,
            },
            Server::Controller => {
                (matches!(name, "afterPropertiesSet" | "destroy") && descriptor == "()V")
                    || method_annotated(table, m, LIFE_CYCLE_ANNOTATIONS)
            }
        };
        life_cycle || is_property_setter(m)
    }
}

/// A request method of an object that serves requests several at once; `header` is `m`'s. Its
/// name or annotations are asked first: this is asked of every method.
pub fn is_request_method(table: &ClassTable, m: &MethodRef, header: &MethodHeader) -> bool {
    let may_serve = (REQUEST_METHODS.contains(&m.name.as_str()) && takes_servlet_type_first(m))
        || REQUEST_MAPPINGS.iter().any(|n| header.has_annotation(n));
    may_serve && Server::of(table, m.class).is_some_and(|server| server.serves(table, m))
}

/// `@Scope` left out, or naming the singleton scope.
fn is_singleton(header: &ClassHeader) -> bool {
    let scope = header.annotations.iter().find(|a| a.type_name.as_str() == "org.springframework.context.annotation.Scope");
    scope.map_or(true, |a| {
        a.elements.iter().all(|(name, value)| {
            !matches!(name.as_str(), "value" | "scopeName") || matches!(value, AnnotationValue::Str(s) if s.is_empty() || s == "singleton")
        })
    })
}

fn method_annotated(table: &ClassTable, m: &MethodRef, names: &[&str]) -> bool {
    let header = table.get(m.class).and_then(|h| table.method(h, m.name, m.descriptor));
    header.is_some_and(|h| names.iter().any(|n| h.has_annotation(n)))
}

fn is_property_setter(m: &MethodRef) -> bool {
    let (name, descriptor) = (m.name.as_str(), m.descriptor.as_str());
    let property = name.strip_prefix("set").is_some_and(|p| p.starts_with(|c: char| c.is_ascii_uppercase()));
    property && descriptor.ends_with(")V") && params(descriptor).count() == 1
}

fn takes_servlet_type_first(m: &MethodRef) -> bool {
    let d = m.descriptor.as_str();
    d.starts_with("(Ljavax/servlet/") || d.starts_with("(Ljakarta/servlet/")
}
#[cfg(test)]
mod tests {
    use super::*;

    fn method(name: &str, descriptor: &str) -> MethodRef {
        MethodRef { class: Sym::new("app.Servlet"), name: Sym::new(name), descriptor: Sym::new(descriptor) }
    }

    #[test]
    fn a_servlets_configuration_is_its_life_cycle_and_its_bean_setters() {
        let table = ClassTable::default();
        let configures = |name, descriptor| Server::Servlet.configures(&table, &method(name, descriptor));
        assert!(configures("init", "()V"));
        assert!(configures("init", "(Ljakarta/servlet/ServletConfig;)V"));
        assert!(configures("destroy", "()V"));
        assert!(configures("setEncoding", "(Ljava/lang/String;)V"));
        assert!(!configures("init", "(Ljava/lang/String;)V"), "a helper named init");
        assert!(!configures("setup", "(I)V"), "no property");
        assert!(!configures("setRange", "(II)V"), "two values");
        assert!(!configures("setName", "(Ljava/lang/String;)Lapp/Servlet;"), "returns a value");
    }
}
