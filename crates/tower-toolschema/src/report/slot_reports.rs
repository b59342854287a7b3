//! [`SlotReports`]: a report's slot reports, shared. A known tool list's reports (the
//! tool-list cache) go into every request that reuses the list as one reference count, not a
//! copy of each report.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::SlotReport;

/// The slot reports of a [`SanitizeReport`](super::SanitizeReport), in body order: reads as a
/// slice (`len`, indexing, `iter`, `for slot in &report.slots`); cloning shares them.
///
/// ```
/// use tower_toolschema::{ToolSchemaLayer, sanitize_body};
/// let body = br#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"a","parameters":{"type":"object"}},{"name":"b","parameters":{"type":"object"}}]}]}"#;
/// let (_, report) = sanitize_body(ToolSchemaLayer::gemini().config(), None, bytes::Bytes::from_static(body));
/// assert_eq!(report.slots.len(), 2);
/// let names: Vec<_> = (&report.slots).into_iter().filter_map(|s| s.tool.as_deref()).collect();
/// assert_eq!(names, ["a", "b"]);
/// assert_eq!(report.slots[1].pointer, "/tools/0/functionDeclarations/1/parameters");
/// let copy = report.slots.clone();
/// assert_eq!(copy, report.slots);
/// assert_eq!(copy.to_vec(), report.slots.to_vec());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SlotReports(Arc<[SlotReport]>);

impl Default for SlotReports {
    /// No slots (shared: no allocation).
    fn default() -> Self {
        static EMPTY: OnceLock<Arc<[SlotReport]>> = OnceLock::new();
        SlotReports(Arc::clone(EMPTY.get_or_init(|| Arc::from(Vec::new()))))
    }
}

impl From<Vec<SlotReport>> for SlotReports {
    fn from(slots: Vec<SlotReport>) -> Self {
        if slots.is_empty() {
            return SlotReports::default();
        }
        SlotReports(slots.into())
    }
}

impl std::ops::Deref for SlotReports {
    type Target = [SlotReport];
    fn deref(&self) -> &[SlotReport] {
        &self.0
    }
}

impl AsRef<[SlotReport]> for SlotReports {
    fn as_ref(&self) -> &[SlotReport] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a SlotReports {
    type Item = &'a SlotReport;
    type IntoIter = std::slice::Iter<'a, SlotReport>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl PartialEq<[SlotReport]> for SlotReports {
    fn eq(&self, other: &[SlotReport]) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<Vec<SlotReport>> for SlotReports {
    fn eq(&self, other: &Vec<SlotReport>) -> bool {
        *self.0 == **other
    }
}

impl fmt::Debug for SlotReports {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_slots_share_one_empty_list() {
        let (a, b) = (SlotReports::default(), SlotReports::from(Vec::new()));
        assert!(Arc::ptr_eq(&a.0, &b.0) && a.is_empty());
        assert_eq!(a, Vec::new());
    }
}
