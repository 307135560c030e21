// The day's problem: which of the n problems of a Problem card (exporters/anki/variant.js)
// or of a practice block on the study site (exporters/site/site.js) shows today. ES5, like
// answers.js, and a plain `var` for the same reason.
//   paperdeckToday.day(): today, in the reader's local time, as days since 1970-01-01
//   paperdeckToday.pick(id, n, day): the problem shown on that day, 0 … n - 1
// A step coprime with n walks through every problem before one repeats, so n consecutive
// days show n different problems; each id (a note's, a block's) starts elsewhere.
var paperdeckToday = (function () {
  function hash(text) {  // FNV-1a, 32 bits
    var h = 2166136261;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = (h + ((h << 1) + (h << 4) + (h << 7) + (h << 8) + (h << 24))) >>> 0;
    }
    return h >>> 0;
  }
  function gcd(a, b) { return b ? gcd(b, a % b) : a; }
  function day() {
    var now = new Date();
    return Math.floor((now.getTime() - now.getTimezoneOffset() * 60000) / 86400000);
  }
  function pick(id, n, today) {
    if (n < 2) { return 0; }
    var h = hash(id);
    var step = 1 + h % Math.max(1, n - 1);
    while (gcd(step, n) !== 1) { step += 1; }
    return ((step * today + (h >>> 11)) % n + n) % n;
  }
  return { day: day, pick: pick };
})();
if (typeof module !== "undefined" && module.exports) { module.exports = paperdeckToday; }
