// The page's words for what its scripts announce and label, in the page's language: the template writes them,
// unformatted, into <script type="application/json" id="page-messages">; pageText(name, {n: 2, ...}) fills the
// named placeholders, numbers written the way the page's language writes them.
var pageText = (function () {
  "use strict";
  var block = document.getElementById("page-messages");
  var messages = {};
  try { messages = JSON.parse(block ? block.textContent : "{}"); } catch (e) { messages = {}; }
  var language = document.documentElement.lang || undefined;
  return function (name, values) {
    var text = messages[name];
    if (typeof text !== "string") { throw new Error("page-messages: " + name); }
    return text.replace(/\{(\w+)\}/g, function (whole, key) {
      if (!values || !(key in values)) { return whole; }
      var value = values[key];
      return typeof value === "number" ? value.toLocaleString(language) : String(value);
    });
  };
})();
