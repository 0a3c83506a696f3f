import CLICore
import Records

extension RecordSheet {
  /// The sheet as `show` prints it: a field and its value a line.
  var table: String {
    var table = TextTable(["field", "value"])
    for row in rows { table.add([row.label, row.value]) }
    return table.text
  }
}
