import Foundation

/// Where a document's read is among the documents its `<invoke>`s read (each is read with the
/// document that invokes it): how deep below the first, which files are being read above it,
/// and how many documents the whole read has read so far. Three bounds keep a read finite:
/// - a document invoked by `src` while it is being read above (it invokes itself) is refused
///   at once: reading it would never end;
/// - invocations nest at most ``SCXMLDocument/maxInvokeDepth`` documents deep, inline ones too
///   (the reader checks ``depth``);
/// - one read reads at most ``SCXMLDocument/maxInvokedDocuments`` documents by `src`: a document
///   that invokes two others, each invoking two more, and so on, would read exponentially many.
struct SCXMLInvokeChain {
  /// How many documents the whole read has read by `src` (shared by every document it reads).
  final class Count {
    var documents = 0
    init() {}
  }

  /// How many invocations below the first document this one is.
  let depth: Int
  /// The files being read above this document (standardized paths), the first one first.
  let files: [String]
  let count: Count

  /// The chain of a document read on its own.
  init() { (depth, files, count) = (0, [], Count()) }

  private init(depth: Int, files: [String], count: Count) { (self.depth, self.files, self.count) = (depth, files, count) }

  /// The chain of a document given inline in this one.
  func inline() -> SCXMLInvokeChain { SCXMLInvokeChain(depth: depth + 1, files: files, count: count) }

  /// The chain of the document at `path`, invoked by `src` from one read from `file`; or why
  /// it is not read.
  func reading(_ path: String, from file: String) -> Result<SCXMLInvokeChain, Refusal> {
    let above = files + [Self.standardized(file)]
    let target = Self.standardized(path)
    if above.contains(target) {
      let names = (above + [target]).map { URL(fileURLWithPath: $0).lastPathComponent }
      return .failure(Refusal(message: "the document invokes itself (\(names.joined(separator: " → "))): reading it would never end"))
    }
    count.documents += 1
    guard count.documents <= SCXMLDocument.maxInvokedDocuments else {
      return .failure(Refusal(message: "more than \(SCXMLDocument.maxInvokedDocuments) documents invoked by src in one read"))
    }
    return .success(SCXMLInvokeChain(depth: depth + 1, files: above, count: count))
  }

  /// Why an invoked document is not read.
  struct Refusal: Error {
    let message: String
  }

  static func standardized(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
}
