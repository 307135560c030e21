// The scanning review page's editor (scanning/outputs.py writes the page around it).
//
// Beside each flag's crop is a box holding the cell as the scan wrote it; what the teacher
// types there replaces that cell. "Save the corrected responses" writes every row of the
// responses CSV, with what was typed, as a file from the page (a Blob: nothing leaves it),
// and a column "typed" naming the cells typed by hand in each row. grade reads it like any
// responses CSV. Cells are written as csv_files.csv_bytes writes them: a cell a spreadsheet
// would run as a formula gets a ' in front (read back as it was), a cell with a comma, a
// quote or a line end is quoted, lines end in CR LF.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("responses").textContent);
  var FORMULA_START = ["=", "+", "-", "@", "\t", "\r"];
  var NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

  function safeCell(text) {  // csv_files.safe_cell
    var shown = text.replace(/^'+/, "");
    var formula = FORMULA_START.some(function (start) { return shown.indexOf(start) === 0; });
    return formula && !NUMBER.test(shown) ? "'" + text : text;
  }

  function csvCell(text) {
    var safe = safeCell(text);
    return /[",\r\n]/.test(safe) ? '"' + safe.replace(/"/g, '""') + '"' : safe;
  }

  var boxes = Array.prototype.slice.call(document.querySelectorAll("input.fix"));

  function cellOf(box) { return box.dataset.line + "\u0000" + box.dataset.column; }

  boxes.forEach(function (box) {
    box.addEventListener("input", function () {
      boxes.forEach(function (other) {  // two flags on one cell (two parts of a vector): one value
        if (other !== box && cellOf(other) === cellOf(box)) { other.value = box.value; }
      });
      boxes.forEach(function (each) { each.classList.toggle("typed", each.value.trim() !== each.defaultValue.trim()); });
    });
  });

  function corrected() {
    var rows = data.rows.map(function (row) { return row.slice(); });
    var header = rows[0];
    var typed = {};
    var count = 0;
    boxes.forEach(function (box) {
      var line = Number(box.dataset.line);
      var column = header.indexOf(box.dataset.column);
      var value = box.value.trim();
      if (column < 0 || !rows[line - 1] || value === box.defaultValue.trim()) { return; }
      if (rows[line - 1][column] !== value) { count += 1; }
      rows[line - 1][column] = value;
      typed[line] = typed[line] || [];
      if (typed[line].indexOf(box.dataset.column) < 0) { typed[line].push(box.dataset.column); }
    });
    if (Object.keys(typed).length) {
      header.push("typed");
      for (var i = 1; i < rows.length; i += 1) { rows[i].push((typed[i + 1] || []).join("; ")); }
    }
    var text = rows.map(function (row) { return row.map(csvCell).join(","); }).join("\r\n") + "\r\n";
    return { text: text, count: count };
  }

  document.getElementById("save").addEventListener("click", function () {
    var result = corrected();
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([result.text], { type: "text/csv;charset=utf-8" }));
    link.download = data.save_as;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
    document.getElementById("status").textContent = "Saved " + data.save_as + " with " + result.count +
      " cell" + (result.count === 1 ? "" : "s") + " typed; grade it with paperdeck grade KEY.json " + data.save_as;
  });
}());
