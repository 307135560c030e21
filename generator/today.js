// The day's problem: which of the n problems of a Problem card (exporters/anki/variant.js)
// or of a practice block on the study site (exporters/site/site.js) shows today. ES5, like
// answers.js, and a plain `var` for the same reason.
//   paperdeckToday.day(): today, in the reader's local time, as days since 1970-01-01
//   paperdeckToday.pick(id, n, day, questions): the problem shown on that day, 0 … n - 1
// A step coprime with n walks through every problem before one repeats, so n consecutive
// days show n different problems; each id (a note's, a block's) starts elsewhere.
// questions (optional) are what the n problems ask, as text: where two of them ask the
// same (a problem type with few numbers to draw from: mha-shapes has 6 questions among
// its 31 problems), the walk is reordered so that no two days in a row ask the same
// question where another order avoids it. Problems that all differ walk as before.
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
  // The walk, day by day (day k of n: problem order[k]). With questions, each day takes,
  // of the problems left, one whose question differs from the day before's: of the question
  // with the most problems left (so that it is not left over for the last days), the first in
  // the walk. Where all questions differ, that is the walk itself.
  function walk(id, n, questions) {
    var h = hash(id), step = 1 + h % Math.max(1, n - 1), order = [], k, r;
    while (gcd(step, n) !== 1) { step += 1; }
    for (k = 0; k < n; k++) { order.push((step * k + (h >>> 11)) % n); }
    if (!questions) { return order; }
    var left = {}, out = [], before = null, first = null, best, q;
    for (k = 0; k < n; k++) { q = questions[order[k]]; left[q] = (left[q] || 0) + 1; }
    function weight(q) { return left[q] + (q === first ? 0.5 : 0); }  // the first day's, on a tie:
    while (order.length) {                                            // not left for the last day
      best = 0;
      for (r = 0; r < order.length; r++) {
        q = questions[order[r]];
        if (q !== before && (questions[order[best]] === before || weight(q) > weight(questions[order[best]]))) {
          best = r;
        }
      }
      before = questions[order[best]];
      if (first === null) { first = before; }
      left[before] -= 1;
      out.push(order.splice(best, 1)[0]);
    }
    return out;
  }
  function pick(id, n, today, questions) {
    if (n < 2) { return 0; }
    return walk(id, n, questions)[(today % n + n) % n];
  }
  return { day: day, pick: pick };
})();
if (typeof module !== "undefined" && module.exports) { module.exports = paperdeckToday; }
