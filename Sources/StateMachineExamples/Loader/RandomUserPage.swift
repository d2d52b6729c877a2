public import Foundation

/// A page of the RandomUser API (`https://randomuser.me/api/?page=N&results=M`), reduced to
/// what the list shows: `results[].name.first` and `.last`.
public enum RandomUserPage {
  private struct Body: Decodable {
    struct Person: Decodable {
      struct Name: Decodable { var first: String; var last: String }
      var name: Name
    }
    var results: [Person]
  }

  /// The users' full names, in order. A body that is not such a page, and a page with no
  /// results, are ``LoadError/decode``.
  public static func decode(_ body: Data) throws(LoadError) -> [String] {
    guard let page = try? JSONDecoder().decode(Body.self, from: body), !page.results.isEmpty else {
      throw .decode
    }
    return page.results.map { "\($0.name.first) \($0.name.last)" }
  }

  /// A body of this shape with these `(first, last)` names, for fakes and tests.
  public static func body(_ names: [(first: String, last: String)]) -> Data {
    let people = names.map { #"{"name":{"title":"Ms","first":"\#($0.first)","last":"\#($0.last)"}}"# }
    return Data(#"{"results":[\#(people.joined(separator: ","))],"info":{"seed":"fsm","version":"1.4"}}"#.utf8)
  }
}
