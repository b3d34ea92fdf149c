//! The in-editor help is complete: every class, property, method and signal of ours carries
//! documentation (read from the same XML the editor loads, `godot::docs`).

use std::collections::BTreeSet;

/// Elements of one class's XML that have no text: (kind, name).
fn undocumented(xml: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let class = attr(xml, "<class ", "name").unwrap_or_default();
    let text = |open: &str, close: &str| {
        xml.split_once(open).and_then(|(_, rest)| rest.split_once(close)).map(|(t, _)| t.trim().to_string())
    };
    let brief = text("<brief_description>", "</brief_description>").unwrap_or_default();
    let desc = text("<description>", "</description>").unwrap_or_default();
    // The class's own description comes before <methods>.
    let head = xml.split("<methods>").next().unwrap_or(xml);
    let head_desc =
        head.split_once("<description>").and_then(|(_, r)| r.split_once("</description>")).map(|(t, _)| t.trim());
    if brief.is_empty() && head_desc.is_none_or(str::is_empty) && desc.is_empty() {
        out.push(("class".into(), class.clone()));
    }
    for (tag, close) in [("<method ", "</method>"), ("<signal ", "</signal>")] {
        for chunk in xml.split(tag).skip(1) {
            let body = chunk.split(close).next().unwrap_or("");
            let name = attr(&format!("{tag}{body}"), tag, "name").unwrap_or_default();
            let d = body
                .split_once("<description>")
                .and_then(|(_, r)| r.split_once("</description>"))
                .map(|(t, _)| t.trim());
            if d.is_none_or(str::is_empty) {
                out.push((tag.trim_start_matches('<').trim().to_string(), name));
            }
        }
    }
    for chunk in xml.split("<member ").skip(1) {
        let (head, rest) = chunk.split_once('>').unwrap_or((chunk, ""));
        let name = attr(&format!("<member {head}>"), "<member ", "name").unwrap_or_default();
        let body = rest.split("</member>").next().unwrap_or("");
        if head.trim_end().ends_with('/') || body.trim().is_empty() {
            out.push(("member".into(), name));
        }
    }
    out
}

fn attr(xml: &str, tag: &str, key: &str) -> Option<String> {
    let start = xml.find(tag)?;
    let head = &xml[start..start + xml[start..].find('>')?];
    let k = format!("{key}=\"");
    let i = head.find(&k)? + k.len();
    Some(head[i..i + head[i..].find('"')?].to_string())
}

#[test]
fn every_class_property_method_and_signal_is_documented() {
    let mut missing = BTreeSet::new();
    let mut classes = 0;
    for xml in godot::docs::__gather_xml_docs() {
        classes += 1;
        let class = attr(&xml, "<class ", "name").unwrap_or_default();
        for (kind, name) in undocumented(&xml) {
            missing.insert(format!("{class}: {kind} {name}"));
        }
    }
    assert!(classes >= 20, "only {classes} classes registered docs");
    // The check reads what it should: a method's text is found.
    let all: String = godot::docs::__gather_xml_docs().collect();
    assert!(
        all.contains("Sends the agents [param ids] to [param destination]"),
        "move_in_formation's documentation is missing"
    );
    assert!(undocumented("<class name=\"X\"><brief_description></brief_description><methods><method name=\"m\"><description></description></method></methods><members><member name=\"p\" type=\"int\"></member></members></class>").len() == 3);
    assert!(
        missing.is_empty(),
        "{} undocumented:\n{}",
        missing.len(),
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
}
