//! The Python module's typed views, `python/attest/_views.py`, generated from
//! the document's JSON Schema ([`json_schema`]), so that Python's classes,
//! their fields and their label types follow the writer's types without an
//! edit by hand: a new stance or source kind reaches Python's `Literal`s when
//! the module is written again.
//!
//! The schema gives each class its fields (in the order the JSON writes
//! them), their types (a label enum is a `Literal` alias, a field that may be
//! null `Optional`, an array a tuple, a count per label a `Mapping`) and the
//! docstrings of fields and labels; [`CLASSES`] says which definitions Python
//! reads, under which names and class docstrings, and where Python's view
//! parts from the JSON (a span's code-point offsets are its `start` and
//! `end`). Behaviour (reprs, `Document`, `analyze`) stays hand-written in
//! `python/attest/__init__.py`.

use serde_json::{Map, Value};

use crate::json::json_schema;

/// Why the views could not be written: the schema has a shape the generator
/// does not know, so that a change to it fails here rather than writing
/// Python that reads it wrongly.
#[derive(Debug, thiserror::Error)]
#[error("python views: {0}")]
pub struct PythonViewsError(String);

fn fail<T>(message: impl Into<String>) -> Result<T, PythonViewsError> {
    Err(PythonViewsError(message.into()))
}

/// Where a Python view parts from the JSON object it reads.
enum Adapt {
    /// The JSON field `json` is the Python field `py`.
    Rename {
        json: &'static str,
        py: &'static str,
    },
    /// A field the JSON object does not hold, which the caller of `_of`
    /// passes (it comes from another layer), placed before field `before`.
    Given {
        py: &'static str,
        ty: &'static str,
        before: &'static str,
        doc: &'static str,
    },
    /// The integer field `json` indexes `list`, a field of the enclosing
    /// record, and Python gives the element it names.
    Element {
        json: &'static str,
        list: &'static str,
        item: &'static str,
    },
}

/// One Python class: the schema definition it reads.
struct Class {
    def: &'static str,
    name: &'static str,
    /// The class docstring, in Python's terms (it speaks of Python's names).
    doc: &'static str,
    /// Whether `__init__.py` gives the class its `__repr__`, so that the
    /// dataclass writes none.
    hand_repr: bool,
    /// Python's field order when it is not the JSON's.
    order: Option<&'static [&'static str]>,
    adapt: &'static [Adapt],
}

/// The classes Python reads, in the order the module defines them (a class
/// before those holding it).
const CLASSES: &[Class] = &[
    Class {
        def: "Span",
        name: "Span",
        doc: "A stretch of the article text: ``doc.text[start:end] == text``.",
        hand_repr: true,
        order: Some(&["start", "end", "byte_start", "byte_end", "text"]),
        adapt: &[
            Adapt::Rename {
                json: "cp_start",
                py: "start",
            },
            Adapt::Rename {
                json: "cp_end",
                py: "end",
            },
        ],
    },
    Class {
        def: "Attribution",
        name: "Attribution",
        doc: "Who said what: ``source``, ``cue`` and ``content`` spans (PolNeAR roles).\n\n\
              ``kind`` is ``direct``, ``mixed``, ``indirect`` or ``according_to``;\n\
              ``stance`` the stance label, or None when stances were not looked for;\n\
              a role the article leaves out (a source for \"reportedly\") is empty;\n\
              ``hedged_by_writer`` whether a hedge of the writer's lies in the cue or\n\
              content (\"reportedly said\"), None when hedges were not looked for.\n",
        hand_repr: true,
        order: None,
        adapt: &[Adapt::Given {
            py: "stance",
            ty: "Optional[StanceLabel]",
            before: "hedged_by_writer",
            doc: "The label of its stance, from the stances layer; None when stances were not\nlooked for.",
        }],
    },
    Class {
        def: "Stance",
        name: "Stance",
        doc: "The stance of one attribution and the words that decided it.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "Merge",
        name: "Merge",
        doc: "A mention that joined a source named or described before it, and why\n\
              (``surname``, ``honorific``, ``acronym``, ``pronoun``, ... as docs/schema.md lists).",
        hand_repr: false,
        order: None,
        adapt: &[Adapt::Element {
            json: "mention",
            list: "mentions",
            item: "Span",
        }],
    },
    Class {
        def: "Source",
        name: "Source",
        doc: "One canonical source of the article, with every mention of it.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "Hedge",
        name: "Hedge",
        doc: "What the article asserts only on hearsay: the hedging ``cue`` and its ``scope``.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "Entity",
        name: "Entity",
        doc: "A named entity; mentions of one entity share ``cluster``.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "Quotation",
        name: "Quotation",
        doc: "A passage between quotation marks, marks left out, and whose words it is.\n\n\
              ``status`` is ``attributed`` (the content of ``attribution``), ``floating``\n\
              (a quote paragraph continuing ``source``, the last speaker), or why no one\n\
              speaks it: ``title``, ``scare``, ``slogan`` or ``unattributed``.\n\
              ``attribution`` and ``source`` index ``Document.attributions`` and\n\
              ``Document.sources``.\n",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "Quantity",
        name: "Quantity",
        doc: "A number with its unit; ``low == high`` for an exact value, None for an open bound.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "Time",
        name: "Time",
        doc: "A time expression resolved to an ISO 8601 ``value``, or why it has none.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "CertaintySummary",
        name: "Certainty",
        doc: "How many statements the writer hedged: attributions, and sentences in\n\
              the writer's own voice (those that attribute and quote no one); each share\n\
              is over its own kind.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
    Class {
        def: "SourcingSummary",
        name: "Summary",
        doc: "The sourcing summary, counted as every attest output counts it.",
        hand_repr: false,
        order: None,
        adapt: &[],
    },
];

/// The longest line the module writes where it can choose, that of the
/// hand-written `python/attest/__init__.py`.
const LINE: usize = 100;

/// The command that writes the module again, which its header and the test
/// that holds it to the generator name.
pub(crate) const COMMAND: &str =
    "cargo run -p attest-write --features schema --example python_views > python/attest/_views.py";

/// The text of `python/attest/_views.py`: the label enums of the document's
/// JSON Schema as `Literal` aliases and the frozen dataclasses of
/// `CLASSES`, each with `_of`, which builds it from its JSON object.
///
/// # Errors
///
/// The schema holds a definition or field shape the generator does not know.
pub fn python_views() -> Result<String, PythonViewsError> {
    let schema = json_schema();
    let Some(defs) = schema.get("$defs").and_then(Value::as_object) else {
        return fail("the schema has no $defs");
    };
    let mut out = format!(
        "# Generated from the JSON Schema of the attest.document/1 JSON\n\
         # (docs/attest.document.schema.json) by `{COMMAND}`;\n\
         # do not edit by hand.\n\
         \"\"\"Typed, read-only views of the ``attest.document/1`` JSON, one class per record,\n\
         with the label of every enum as a ``Literal``.\"\"\"\n\n\
         from __future__ import annotations\n\n\
         from dataclasses import dataclass\n\
         from typing import Any, Literal, Mapping, Optional\n"
    );
    for (name, def) in defs {
        if let Some(values) = enum_values(def) {
            out.push_str(&alias(name, def, &values));
        }
    }
    // `Document.has` takes this alias, so a schema without the list of
    // layers fails here rather than writing a module `__init__.py` cannot import.
    let Some(layers) = schema
        .pointer("/properties/layers/items/enum")
        .and_then(Value::as_array)
    else {
        return fail("the schema lists no layers");
    };
    let values: Vec<(&str, Option<&str>)> = layers
        .iter()
        .filter_map(Value::as_str)
        .map(|value| (value, None))
        .collect();
    let doc =
        serde_json::json!({"description": "The name of a layer, as `Document.has` takes it."});
    out.push_str(&alias("Layer", &doc, &values));
    for class in CLASSES {
        out.push_str(&class_source(class, defs)?);
    }
    Ok(out)
}

/// The values of a label enum (a `oneOf` of string constants) with their
/// descriptions, or `None` for any other definition.
fn enum_values(def: &Value) -> Option<Vec<(&str, Option<&str>)>> {
    def.get("oneOf")?
        .as_array()?
        .iter()
        .map(|value| {
            Some((
                value.get("const")?.as_str()?,
                value.get("description").and_then(Value::as_str),
            ))
        })
        .collect()
}

/// `NAME = Literal[...]` with its docstring: the enum's description and
/// each value's.
fn alias(name: &str, def: &Value, values: &[(&str, Option<&str>)]) -> String {
    let quoted: Vec<String> = values
        .iter()
        .map(|(value, _)| format!("{value:?}"))
        .collect();
    let mut out = format!("\n{}", call(&format!("{name} = Literal["), &quoted, "]", 0));
    let mut doc = description(def).unwrap_or_default();
    let described: Vec<String> = values
        .iter()
        .filter_map(|(value, text)| {
            let text = (*text)?.replace('\n', " ").replace('`', "``");
            Some(format!("- ``{value}``: {text}"))
        })
        .collect();
    if !described.is_empty() {
        doc = format!("{doc}\n\n{}\n", described.join("\n"));
    }
    out.push_str(&docstring(&doc, 0));
    out
}

/// How `_of` reads a field from its JSON value, and the Python type it gives.
enum Read {
    /// The JSON value as it is: a number, string, boolean, label or mapping.
    Plain,
    /// A record of class `.0`, built by its `_of` with the arguments `.1`.
    Class(String, Vec<&'static str>),
    /// The value or null.
    Optional(Box<Read>),
    /// An array, read item by item into a tuple.
    Tuple(Box<Read>),
    /// An index into the enclosing record's field `.0`.
    Element(&'static str),
}

impl Read {
    /// The Python expression that reads `input`.
    fn expr(&self, input: &str) -> String {
        match self {
            Read::Plain => input.to_owned(),
            Read::Class(name, args) => {
                let mut all = vec![input];
                all.extend(args.iter().copied());
                format!("{name}._of({})", all.join(", "))
            }
            Read::Optional(inner) => match **inner {
                Read::Plain => input.to_owned(),
                _ => format!("None if {input} is None else {}", inner.expr(input)),
            },
            Read::Tuple(inner) => match **inner {
                Read::Plain => format!("tuple({input})"),
                _ => format!("tuple({} for item in {input})", inner.expr("item")),
            },
            Read::Element(list) => format!("{list}[{input}]"),
        }
    }

    /// The arguments of the enclosing record's `_of` this read needs.
    fn args(&self) -> Vec<&'static str> {
        match self {
            Read::Plain | Read::Element(_) => Vec::new(),
            Read::Class(_, args) => args.clone(),
            Read::Optional(inner) | Read::Tuple(inner) => inner.args(),
        }
    }
}

/// One field of a Python class.
struct Field {
    py: String,
    json: Option<String>,
    ty: String,
    read: Read,
    doc: Option<String>,
}

/// The Python class of `class`, with `_of`.
fn class_source(class: &Class, defs: &Map<String, Value>) -> Result<String, PythonViewsError> {
    let Some(def) = defs.get(class.def) else {
        return fail(format!("no definition {}", class.def));
    };
    let fields = fields(class, def, defs)?;
    let repr = if class.hand_repr { ", repr=False" } else { "" };
    let mut out = format!("\n\n@dataclass(frozen=True{repr})\nclass {}:\n", class.name);
    out.push_str(&docstring(class.doc, 4));
    out.push('\n');
    for field in &fields {
        out.push_str(&format!("    {}: {}\n", field.py, field.ty));
        if let Some(doc) = &field.doc {
            out.push_str(&docstring(doc, 4));
        }
    }
    if fields
        .iter()
        .any(|field| field.py == "span" && field.ty == "Span")
    {
        out.push_str(
            "\n    @property\n    def text(self) -> str:\n        \
             \"\"\"The text of ``span``.\"\"\"\n        return self.span.text\n",
        );
    }
    // `_of`'s parameters: the fields given by the caller, and those an
    // element index of this record's items reads from the caller's record.
    let mut params = vec!["value: Mapping[str, Any]".to_owned()];
    for adapt in class.adapt {
        match adapt {
            Adapt::Given { py, ty, .. } => params.push(format!("{py}: {ty}")),
            Adapt::Element { list, item, .. } => params.push(format!("{list}: tuple[{item}, ...]")),
            Adapt::Rename { .. } => {}
        }
    }
    out.push_str("\n    @staticmethod\n");
    out.push_str(&call(
        "    def _of(",
        &params,
        &format!(") -> {}:", class.name),
        4,
    ));
    // A field an item's `_of` needs is read once, before the record.
    let needed: Vec<&str> = fields.iter().flat_map(|field| field.read.args()).collect();
    let mut args = Vec::new();
    for field in &fields {
        let read = match &field.json {
            Some(json) => field.read.expr(&format!("value[{json:?}]")),
            None => field.py.clone(),
        };
        if needed.contains(&field.py.as_str()) {
            out.push_str(&format!("        {} = {read}\n", field.py));
            args.push(format!("{0}={0}", field.py));
        } else {
            args.push(format!("{}={read}", field.py));
        }
    }
    for name in needed {
        if !fields.iter().any(|field| field.py == name) {
            return fail(format!("{} has no field {name} for its items", class.def));
        }
    }
    out.push_str(&call(
        &format!("        return {}(", class.name),
        &args,
        ")",
        8,
    ));
    Ok(out)
}

/// The fields of `class`, in Python's order, from its definition `def`.
fn fields(
    class: &Class,
    def: &Value,
    defs: &Map<String, Value>,
) -> Result<Vec<Field>, PythonViewsError> {
    let (Some(required), Some(properties)) = (
        def.get("required").and_then(Value::as_array),
        def.get("properties").and_then(Value::as_object),
    ) else {
        return fail(format!(
            "{} is not an object with required fields",
            class.def
        ));
    };
    let mut fields = Vec::new();
    for json in required.iter().filter_map(Value::as_str) {
        let Some(property) = properties.get(json) else {
            return fail(format!(
                "{}.{json} is required but not described",
                class.def
            ));
        };
        for adapt in class.adapt {
            if let Adapt::Given {
                py,
                ty,
                before,
                doc,
            } = adapt
                && *before == json
            {
                fields.push(Field {
                    py: (*py).to_owned(),
                    json: None,
                    ty: (*ty).to_owned(),
                    read: Read::Plain,
                    doc: Some((*doc).to_owned()),
                });
            }
        }
        let mut py = json.to_owned();
        let (mut ty, mut read) = type_of(property, defs, &format!("{}.{json}", class.def))?;
        for adapt in class.adapt {
            match adapt {
                Adapt::Rename { json: from, py: to } if *from == json => py = (*to).to_owned(),
                Adapt::Element {
                    json: from,
                    list,
                    item,
                } if *from == json => {
                    ty = (*item).to_owned();
                    read = Read::Element(list);
                }
                _ => {}
            }
        }
        fields.push(Field {
            py,
            json: Some(json.to_owned()),
            ty,
            read,
            doc: description(property),
        });
    }
    if let Some(order) = class.order {
        let mut ordered = Vec::new();
        for name in order {
            let Some(at) = fields.iter().position(|field| field.py == *name) else {
                return fail(format!("{} has no field {name}", class.def));
            };
            ordered.push(fields.remove(at));
        }
        if !fields.is_empty() {
            return fail(format!("{}: fields missing from its order", class.def));
        }
        fields = ordered;
    }
    Ok(fields)
}

/// The Python type of a field's schema and how `_of` reads it; `place` names
/// it in errors.
fn type_of(
    schema: &Value,
    defs: &Map<String, Value>,
    place: &str,
) -> Result<(String, Read), PythonViewsError> {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.trim_start_matches("#/$defs/");
        let Some(def) = defs.get(name) else {
            return fail(format!("{place}: no definition {name}"));
        };
        if enum_values(def).is_some() {
            return Ok((name.to_owned(), Read::Plain));
        }
        if let Some(label) = counted_enum(def, defs) {
            return Ok((format!("Mapping[{label}, int]"), Read::Plain));
        }
        let Some(class) = CLASSES.iter().find(|class| class.def == name) else {
            return fail(format!("{place}: {name} has no Python class"));
        };
        let args = class
            .adapt
            .iter()
            .filter_map(|adapt| match adapt {
                Adapt::Element { list, .. } => Some(*list),
                _ => None,
            })
            .collect();
        return Ok((
            class.name.to_owned(),
            Read::Class(class.name.to_owned(), args),
        ));
    }
    if let Some(any_of) = schema.get("anyOf").and_then(Value::as_array)
        && let [inner, null] = any_of.as_slice()
        && null.get("type").and_then(Value::as_str) == Some("null")
    {
        let (ty, read) = type_of(inner, defs, place)?;
        return Ok((format!("Optional[{ty}]"), Read::Optional(Box::new(read))));
    }
    let (kind, nullable) = match schema.get("type") {
        Some(Value::String(kind)) => (kind.as_str(), false),
        Some(Value::Array(kinds)) => match kinds.as_slice() {
            [Value::String(kind), Value::String(null)] if null == "null" => (kind.as_str(), true),
            _ => return fail(format!("{place}: types {kinds:?}")),
        },
        _ => return fail(format!("{place}: no type")),
    };
    let (ty, read) = match kind {
        "integer" => ("int".to_owned(), Read::Plain),
        "number" => ("float".to_owned(), Read::Plain),
        "string" => ("str".to_owned(), Read::Plain),
        "boolean" => ("bool".to_owned(), Read::Plain),
        "array" => {
            let Some(items) = schema.get("items") else {
                return fail(format!("{place}: an array without items"));
            };
            let (ty, read) = type_of(items, defs, place)?;
            (format!("tuple[{ty}, ...]"), Read::Tuple(Box::new(read)))
        }
        other => return fail(format!("{place}: type {other}")),
    };
    Ok(if nullable {
        (format!("Optional[{ty}]"), Read::Optional(Box::new(read)))
    } else {
        (ty, read)
    })
}

/// The label enum a definition counts, when it is an object with one count
/// for each of the enum's values (`StanceLabelCounts`).
fn counted_enum<'a>(def: &Value, defs: &'a Map<String, Value>) -> Option<&'a str> {
    let properties = def.get("properties")?.as_object()?;
    defs.iter().find_map(|(name, other)| {
        let values = enum_values(other)?;
        let same = values.len() == properties.len()
            && values
                .iter()
                .all(|(value, _)| properties.contains_key(*value));
        same.then_some(name.as_str())
    })
}

/// A schema's description, in the docstring's markup: Markdown's code spans
/// become reStructuredText's.
fn description(schema: &Value) -> Option<String> {
    let text = schema.get("description")?.as_str()?;
    Some(text.replace('`', "``"))
}

/// `text` as a docstring indented by `indent`, each line of it too.
fn docstring(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let text = text
        .trim_end()
        .replace('\\', "\\\\")
        .replace("\"\"\"", "\\\"\\\"\\\"");
    // A closing quote of the text would run into the docstring's.
    let text = match text.strip_suffix('"') {
        Some(rest) => format!("{rest}\\\""),
        None => text,
    };
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("{pad}{line}")
            }
        })
        .collect();
    let body = lines.join("\n");
    let body = body.trim_start();
    if lines.len() == 1 {
        format!("{pad}\"\"\"{body}\"\"\"\n")
    } else {
        format!("{pad}\"\"\"{body}\n{pad}\"\"\"\n")
    }
}

/// `head` (ending in its opening bracket), the arguments and `tail` (from
/// the closing bracket on), as black lays them out at [`LINE`]: on one line
/// when it fits, else the arguments on one line of their own, else one a
/// line with a trailing comma; `indent` is the head's, and the result ends
/// in a newline.
fn call(head: &str, args: &[String], tail: &str, indent: usize) -> String {
    let joined = args.join(", ");
    let one = format!("{head}{joined}{tail}");
    if one.chars().count() <= LINE {
        return format!("{one}\n");
    }
    let pad = " ".repeat(indent);
    let inner = format!("{pad}    {joined}");
    if inner.chars().count() <= LINE {
        return format!("{head}\n{inner}\n{pad}{tail}\n");
    }
    let mut out = format!("{head}\n");
    for arg in args {
        out.push_str(&format!("{pad}    {arg},\n"));
    }
    out.push_str(&format!("{pad}{tail}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed module is the generated one, so that Python's views
    /// change with the writer's types (a new label or field) without an
    /// edit by hand.
    #[test]
    fn the_committed_python_views_are_the_generated_ones() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/attest/_views.py");
        let committed = std::fs::read_to_string(path).unwrap();
        assert!(
            committed == python_views().unwrap(),
            "python/attest/_views.py is out of date; write it again with `{COMMAND}`"
        );
    }

    /// Every label enum of the schema is a `Literal` of exactly its values,
    /// in the schema's order.
    #[test]
    fn every_label_enum_is_a_literal_of_its_values() {
        let views = python_views().unwrap();
        let schema = json_schema();
        let defs = schema["$defs"].as_object().unwrap();
        let mut enums = 0;
        for (name, def) in defs {
            let Some(values) = enum_values(def) else {
                continue;
            };
            let quoted: Vec<String> = values.iter().map(|(v, _)| format!("{v:?}")).collect();
            let flat = views
                .replace(",\n    ", ", ")
                .replace("[\n    ", "[")
                .replace(",\n]", "]")
                .replace("\n]", "]");
            assert!(
                flat.contains(&format!("\n{name} = Literal[{}]\n", quoted.join(", "))),
                "{name}"
            );
            enums += 1;
        }
        assert!(enums >= 10, "{enums}");
    }

    /// A label field is typed by its enum, a nullable field is Optional, and
    /// a Python name stands for its JSON name in `_of`.
    #[test]
    fn fields_are_typed_and_read_from_their_json_names() {
        let views = python_views().unwrap();
        assert!(views.contains("    kind: AttributionKind\n"));
        assert!(views.contains("    gender: Optional[Gender]\n"));
        assert!(views.contains("    stances: Mapping[StanceLabel, int]\n"));
        assert!(views.contains("    certainty: Optional[Certainty]\n"));
        assert!(views.contains("start=value[\"cp_start\"]"));
        assert!(views.contains("mention=mentions[value[\"mention\"]]"));
        assert!(views.contains(
            "        mentions = tuple(Span._of(item) for item in value[\"mentions\"])\n"
        ));
    }

    #[test]
    fn docstrings_escape_what_would_end_them() {
        assert_eq!(docstring("says \"no\"", 0), "\"\"\"says \"no\\\"\"\"\"\n");
        assert_eq!(docstring("a\\b", 4), "    \"\"\"a\\\\b\"\"\"\n");
        assert_eq!(
            docstring("one\n\ntwo", 4),
            "    \"\"\"one\n\n    two\n    \"\"\"\n"
        );
    }

    #[test]
    fn calls_break_as_a_formatter_breaks_them() {
        let short = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(call("f(", &short, ")", 0), "f(a, b)\n");
        // 101 characters on one line, 68 for the arguments alone.
        let long = vec!["x".repeat(36), "y".repeat(30)];
        let head = format!("{}(", "f".repeat(33));
        assert_eq!(
            call(&head, &long, ")", 0),
            format!("{head}\n    {}, {}\n)\n", long[0], long[1])
        );
        let longer = vec!["x".repeat(60), "y".repeat(60)];
        assert_eq!(
            call("fn(", &longer, ")", 0),
            format!("fn(\n    {},\n    {},\n)\n", longer[0], longer[1])
        );
    }
}
