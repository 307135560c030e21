// Replays review logs through the vendored ts-fsrs (generator/exporters/site/vendor/ts-fsrs.js,
// the file review.html runs) with the scheduler the review page builds: FSRS-6's default
// parameters, no fuzz. Reads {"logs": [[[ms, rating], ...], ...]} on stdin and writes, for
// each review of each log, the card after it: stability, difficulty, state, due (ms).
"use strict";
const path = require("path");
const F = require(path.resolve(__dirname, "../../generator/exporters/site/vendor/ts-fsrs.js"));
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const scheduler = F.fsrs(F.generatorParameters({ enable_fuzz: false }));
const out = input.logs.map((log) => {
  let card = F.createEmptyCard(new Date(log[0][0]));
  return log.map(([ms, rating]) => {
    card = scheduler.next(card, new Date(ms), rating).card;
    return { stability: card.stability, difficulty: card.difficulty, state: card.state, due: card.due.getTime() };
  });
});
process.stdout.write(JSON.stringify({ version: F.FSRSVersion, w: F.default_w, out }));
