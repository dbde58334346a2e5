// Package storage is how the delivery domain keeps its files: YAML documents edited as
// nodes and written by the one §1.14 encoder.
//
//   - YAML: [DecodeYAML], [EncodeYAML] and the node helpers [MapGet], [MapSet],
//     [MapDelete], [MapPath], [EnsureMap], [StrNode], [DateNode]…, and what the domain's
//     readers share to report a wrong type ([Deref], [IsNull], [KindName], the Tag*
//     constants).
//
// It knows no workspace, work unit or git: package delivery builds its model on it.
//
// Invariants:
//
//   - YAML edits change only the nodes they touch; unknown keys and comments survive, new
//     keys are appended at the end of their mapping.
//   - [EncodeYAML] writes indent 2, sequences under their key, no document marker, LF line
//     endings and exactly one final newline.
//   - Nothing here reads process globals or prints.
package storage
