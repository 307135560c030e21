// The review page (review.html, generator/exporters/site/review.py): the site's cards one at a
// time, due first, then new ones in teaching order, rated Again/Hard/Good/Easy (buttons or keys
// 1-4) and scheduled by ts-fsrs (assets/ts-fsrs.js, the global FSRS). The schedule is one
// localStorage entry beside the site's progress: the site's identity (data-store, identity.py
// ``site_store``) + ":review", which the lesson pages read to say what is due (site.js).
// Export writes both entries to a JSON file; import checks a file whole before it changes anything.
(function () {
  "use strict";
  var F = window.FSRS;
  var root = document.documentElement;
  var KEY = root.getAttribute("data-store") || "paperdeck:site";
  var REVIEW = KEY + ":review";
  var FORMAT = "paperdeck-progress";
  var LEARN_AHEAD = 20 * 60 * 1000;  // a card due within 20 minutes is due now, as in Anki
  var NEW_PER_DAY = 20;  // Anki's default new cards a day
  var FIELDS = ["due", "stability", "difficulty", "elapsed_days", "scheduled_days", "learning_steps",
    "reps", "lapses", "state"];
  var scheduler = F.fsrs(F.generatorParameters({ enable_fuzz: false }));
  var status = document.querySelector(".pd-review-status");
  var rating = document.querySelector(".pd-rating");
  var next = document.querySelector(".pd-review-next");
  var importStatus = document.querySelector(".pd-import-status");
  var nodes = document.querySelectorAll(".pd-queue [data-key][data-lesson]");
  var cards = [];
  for (var i = 0; i < nodes.length; i++) {
    cards.push({ id: nodes[i].getAttribute("data-lesson") + "/" + nodes[i].getAttribute("data-key"), el: nodes[i] });
  }
  var state = load();
  var current = null;

  function isNumber(x) { return typeof x === "number" && isFinite(x); }
  // A schedule as stored (dates as milliseconds), or null when ``s`` is not one.
  function validSchedule(s) {
    if (!s || typeof s !== "object" || !s.cards || typeof s.cards !== "object" || Array.isArray(s.cards)) { return null; }
    for (var id in s.cards) {
      var c = s.cards[id];
      if (!c || typeof c !== "object") { return null; }
      for (var f = 0; f < FIELDS.length; f++) { if (!isNumber(c[FIELDS[f]])) { return null; } }
      if (c.last_review !== null && !isNumber(c.last_review)) { return null; }
    }
    var fresh = s.fresh && typeof s.fresh === "object" && typeof s.fresh.day === "string" && isNumber(s.fresh.count)
      ? s.fresh : { day: "", count: 0 };
    var exam = typeof s.exam === "string" && /^\d{4}-\d\d-\d\d$/.test(s.exam) ? s.exam : "";
    return { cards: s.cards, fresh: fresh, exam: exam, paced: validPace(s.paced, exam), own: s.own === true };
  }
  // The pace the student set with the exam's date (the day, new cards a day, each lesson's new
  // cards then), kept to say later how far behind it they are; null when ``p`` is not one.
  function validPace(p, exam) {
    if (!p || typeof p !== "object" || p.exam !== exam || !isNumber(p.perDay) || typeof p.day !== "string" ||
        !/^\d{4}-\d\d-\d\d$/.test(p.day) || !p.unseen || typeof p.unseen !== "object") { return null; }
    for (var page in p.unseen) { if (!isNumber(p.unseen[page])) { return null; } }
    return { exam: exam, day: p.day, perDay: p.perDay, unseen: p.unseen };
  }
  function load() {
    var s = null;
    try { s = validSchedule(JSON.parse(window.localStorage.getItem(REVIEW) || "null")); } catch (e) { s = null; }
    return s || { cards: {}, fresh: { day: "", count: 0 }, exam: "", paced: null, own: false };
  }
  function save() {
    try { window.localStorage.setItem(REVIEW, JSON.stringify(state)); } catch (e) { /* private mode: this visit only */ }
  }
  function toCard(s) {
    var c = {};
    for (var f = 0; f < FIELDS.length; f++) { c[FIELDS[f]] = s[FIELDS[f]]; }
    c.due = new Date(s.due);
    c.last_review = s.last_review === null ? undefined : new Date(s.last_review);
    return c;
  }
  function fromCard(c) {
    var s = {};
    for (var f = 0; f < FIELDS.length; f++) { s[FIELDS[f]] = c[FIELDS[f]]; }
    s.due = c.due.getTime();
    s.last_review = c.last_review ? new Date(c.last_review).getTime() : null;
    return s;
  }
  function today() {
    var d = new Date();
    return d.getFullYear() + "-" + (d.getMonth() + 1) + "-" + d.getDate();
  }
  function newPerDay() { var p = plan(); return p && p.perDay ? Math.max(NEW_PER_DAY, p.perDay) : NEW_PER_DAY; }
  function newLeft() { return Math.max(0, newPerDay() - (state.fresh.day === today() ? state.fresh.count : 0)); }

  // The exam's plan (as documents/plan.py paces a deck): the new cards left over the days to the
  // exam less the sweep, lesson by lesson in teaching order, and each lesson's predicted recall
  // on the exam's morning, the mean retrievability of its reviewed cards (ts-fsrs).
  function midnight(d) { var x = new Date(d.getTime()); x.setHours(0, 0, 0, 0); return x; }
  function addDays(d, n) { var x = new Date(d.getTime()); x.setDate(x.getDate() + n); return x; }
  function day(d) { return d.toLocaleDateString([], { weekday: "short", day: "numeric", month: "short" }); }
  function isoDay(d) { return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0"); }
  function localDate(iso, hour) { var parts = iso.split("-"); return new Date(Number(parts[0]), Number(parts[1]) - 1, Number(parts[2]), hour); }
  function plan() {
    if (!state.exam) { return null; }
    var exam = localDate(state.exam, 9);
    var start = midnight(new Date());
    var days = Math.round((midnight(exam) - start) / 86400000);
    if (!(days >= 1)) { return { days: days, exam: exam }; }
    var teaching = days - Math.min(7, Math.floor(days / 4));
    var lessons = [], byPage = {}, unseen = 0;
    for (var j = 0; j < cards.length; j++) {
      var group = cards[j].el.closest(".pd-review-lesson"), page = group.getAttribute("data-page");
      var lesson = byPage[page];
      if (!lesson) { lesson = byPage[page] = { title: group.getAttribute("data-title"), cards: 0, unseen: 0, reviewed: 0, recall: 0 }; lessons.push(lesson); }
      lesson.cards++;
      var s = state.cards[cards[j].id];
      if (!s) { lesson.unseen++; unseen++; } else { lesson.reviewed++; lesson.recall += scheduler.get_retrievability(toCard(s), exam, false); }
    }
    var perDay = Math.max(1, Math.ceil(unseen / teaching)), before = 0;
    for (var l = 0; l < lessons.length; l++) {
      lessons[l].start = addDays(start, Math.floor(before / perDay));
      before += lessons[l].unseen;
      lessons[l].end = addDays(start, Math.max(0, Math.ceil(before / perDay) - 1));
    }
    var p = { days: days, exam: exam, perDay: perDay, unseen: unseen, sweep: addDays(start, teaching), lessons: lessons, byPage: byPage };
    behind(p, start);
    return p;
  }
  // How far behind the pace the student set they are: the new cards that pace brought before
  // today less those seen since, in all and per lesson (the pace takes the lessons in order).
  function behind(p, start) {
    var paced = state.paced;
    p.behind = null;
    if (!paced) { return; }
    var elapsed = Math.max(0, Math.round((start - localDate(paced.day, 0)) / 86400000));
    var due = paced.perDay * elapsed, planned = 0, seen = 0, before = 0;
    for (var page in p.byPage) {
      var L = p.byPage[page], then = Math.min(paced.unseen[page] || 0, L.cards);
      var lessonDue = Math.max(0, Math.min(then, due - before));
      before += then;
      planned += lessonDue;
      var lessonSeen = Math.max(0, then - L.unseen);
      seen += lessonSeen;
      L.behind = Math.max(0, lessonDue - lessonSeen);
    }
    p.behind = { cards: Math.max(0, planned - seen), since: localDate(paced.day, 9), perDay: paced.perDay };
  }
  // The pace as set today, kept with the exam's date.
  function setPace() {
    var p = plan();
    state.paced = null;
    if (!p || !p.perDay) { return; }
    var unseen = {};
    for (var page in p.byPage) { unseen[page] = p.byPage[page].unseen; }
    state.paced = { exam: state.exam, day: isoDay(new Date()), perDay: p.perDay, unseen: unseen };
  }
  var examInput = document.querySelector(".pd-exam");
  var summary = document.querySelector(".pd-plan-summary");
  var table = document.querySelector(".pd-plan");
  function showPlan() {
    var p = plan();
    examInput.value = state.exam;
    table.hidden = !p || !p.perDay;
    if (!p) { summary.textContent = ""; return; }
    if (!p.perDay) { summary.textContent = "That date is not after today: choose a later one."; return; }
    summary.textContent = "Exam on " + day(p.exam) + ", in " + p.days + (p.days === 1 ? " day: " : " days: ") +
      p.unseen + " new cards left, " + p.perDay + " a day" + (p.perDay < NEW_PER_DAY ? " (this page shows up to " + NEW_PER_DAY + ")" : "") +
      "; from " + day(p.sweep) + " the final sweep: no new cards, review what is due." +
      (!p.behind ? "" : p.behind.cards ? " You are " + p.behind.cards + " new cards behind the pace you set on " + day(p.behind.since) +
        " (" + p.behind.perDay + " a day); the pace above makes up for them." : " You are on the pace you set on " + day(p.behind.since) + ".");
    var rows = [];
    for (var l = 0; l < p.lessons.length; l++) {
      var L = p.lessons[l];
      var when = !L.unseen ? "all seen" : L.start.getTime() === L.end.getTime() ? day(L.start) : day(L.start) + " \u2013 " + day(L.end);
      var recall = L.reviewed ? Math.round(100 * L.recall / L.reviewed) + "% (" + L.reviewed + " of " + L.cards + " reviewed)" : "not reviewed yet";
      var late = !p.behind ? "\u2013" : L.behind ? L.behind + (L.behind === 1 ? " card" : " cards") : "none";
      rows.push([L.title, L.unseen + " of " + L.cards, when, recall, late]);
    }
    var body = table.querySelector("tbody");
    body.textContent = "";
    for (var r = 0; r < rows.length; r++) {
      var tr = document.createElement("tr");
      for (var c = 0; c < rows[r].length; c++) {
        var cell = document.createElement(c ? "td" : "th");
        if (!c) { cell.setAttribute("scope", "row"); }
        cell.textContent = rows[r][c];
        tr.appendChild(cell);
      }
      body.appendChild(tr);
    }
  }
  // The site's own exam date (its recipe's exam:, or build --exam) starts the plan of a student
  // who has given none; a date they give is theirs from then on.
  var built = examInput.getAttribute("data-exam");
  if (!state.own && !state.exam && built && /^\d{4}-\d\d-\d\d$/.test(built) && localDate(built, 0) > midnight(new Date())) {
    state.exam = built;
    setPace();
    save();
  }
  examInput.addEventListener("change", function () {
    state.exam = /^\d{4}-\d\d-\d\d$/.test(examInput.value) ? examInput.value : "";
    state.own = true;  // the student's date, or none, from now on
    setPace();
    save();
    showPlan();
    show();
  });
  function span(ms) {
    var minutes = Math.max(1, Math.round(ms / 60000));
    if (minutes < 60) { return minutes + " min"; }
    if (minutes < 60 * 24) { return Math.round(minutes / 60) + " h"; }
    var days = Math.round(minutes / 1440);
    return days < 60 ? days + (days === 1 ? " day" : " days") : Math.round(days / 30) + " months";
  }
  function when(ms) { return new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }); }

  // The card to show: the most overdue one, else the next new one (teaching order) if today's
  // new cards are not all seen, else one due within LEARN_AHEAD (as Anki learns ahead), else none.
  function pick() {
    var now = Date.now(), best = null, soon = null, fresh = null, due = 0, unseen = 0;
    for (var j = 0; j < cards.length; j++) {
      var s = state.cards[cards[j].id];
      if (!s) { unseen++; if (!fresh) { fresh = cards[j]; } continue; }
      if (s.due <= now) { due++; if (!best || s.due < state.cards[best.id].due) { best = cards[j]; } }
      else if (s.due <= now + LEARN_AHEAD && (!soon || s.due < state.cards[soon.id].due)) { soon = cards[j]; }
    }
    return { card: best || (newLeft() > 0 ? fresh : null) || soon, due: due, unseen: unseen };
  }
  function nextDue() {
    var soonest = null;
    for (var id in state.cards) { if (soonest === null || state.cards[id].due < soonest) { soonest = state.cards[id].due; } }
    return soonest;
  }
  function show() {
    var q = pick();
    current = q.card;
    for (var j = 0; j < cards.length; j++) { cards[j].el.hidden = cards[j] !== current; }
    var groups = document.querySelectorAll(".pd-review-lesson");
    for (var g = 0; g < groups.length; g++) { groups[g].hidden = !current || !groups[g].contains(current.el); }
    var left = Math.min(newLeft(), q.unseen);
    if (!current) {
      rating.hidden = true;
      var soonest = nextDue();
      status.textContent = "Nothing to review now." + (soonest !== null ? " Next card due " + when(soonest) + "." : "") +
        (q.unseen ? " " + q.unseen + " new cards wait for tomorrow (" + newPerDay() + " new a day)." : "");
      return;
    }
    var lesson = current.el.closest(".pd-review-lesson");
    status.textContent = q.due + " due, " + left + " new left today \u00b7 this card: " +
      (state.cards[current.id] ? "review" : "new") + ", from \u201c" + lesson.getAttribute("data-title") + "\u201d";
    var now = new Date(), preview = scheduler.repeat(card(current), now);
    var buttons = rating.querySelectorAll(".pd-rate");
    for (var b = 0; b < buttons.length; b++) {
      var after = preview[Number(buttons[b].getAttribute("data-rating"))].card;
      buttons[b].querySelector(".pd-interval").textContent = "(" + span(after.due.getTime() - now.getTime()) + ")";
    }
    rating.hidden = false;
    numbers(current.el);
  }
  // A problem's card shows the day's numbers, as its lesson page does (site.js, today.js): its
  // lesson's file of problems (a classic script, which file:// loads) is added when the first of
  // its problems comes up, not before, so this page opens without them (3.4 MB for the paper).
  var loading = {};
  function numbers(el) {
    if (!el.classList.contains("pd-practice")) { return; }
    var start = function () { if (window.paperdeckPractice) { window.paperdeckPractice(el); } };
    if ((window.paperdeckProblems || {})[el.getAttribute("data-key")]) { start(); return; }
    var file = el.closest(".pd-review-lesson").getAttribute("data-problems");
    if (!loading[file]) {
      loading[file] = [];
      var script = document.createElement("script");
      script.src = file;
      script.onload = function () { var waiting = loading[file]; loading[file] = []; for (var w = 0; w < waiting.length; w++) { waiting[w](); } };
      script.onerror = function () { status.textContent += " (its numbers did not load: " + file + " is missing)"; };
      document.head.appendChild(script);
    }
    loading[file].push(start);
  }
  function card(c) { return state.cards[c.id] ? toCard(state.cards[c.id]) : F.createEmptyCard(new Date()); }
  function rate(n) {
    if (!current) { return; }
    var wasNew = !state.cards[current.id];
    var result = scheduler.next(card(current), new Date(), n);
    state.cards[current.id] = fromCard(result.card);
    if (wasNew) {
      if (state.fresh.day !== today()) { state.fresh = { day: today(), count: 0 }; }
      state.fresh.count++;
    }
    save();
    next.textContent = "Rated " + ["Again", "Hard", "Good", "Easy"][n - 1] + ". Next review of that card: " +
      when(result.card.due.getTime()) + ".";
    show();
    showPlan();
    if (rating.hidden) { status.setAttribute("tabindex", "-1"); status.focus(); }
  }
  var rateButtons = rating.querySelectorAll(".pd-rate");
  for (var r = 0; r < rateButtons.length; r++) {
    rateButtons[r].addEventListener("click", function (event) { rate(Number(event.currentTarget.getAttribute("data-rating"))); });
  }
  document.addEventListener("keydown", function (event) {
    var t = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || rating.hidden) { return; }
    if (t && t.closest && t.closest("input, textarea, select")) { return; }
    if (/^[1-4]$/.test(event.key)) { event.preventDefault(); rate(Number(event.key)); }
  });

  // Export and import: the schedule and the lesson pages' progress, as one JSON file.
  document.querySelector(".pd-export").addEventListener("click", function () {
    var site = null;
    try { site = JSON.parse(window.localStorage.getItem(KEY) || "null"); } catch (e) { site = null; }
    var file = { format: FORMAT, version: 1, store: KEY, exported: new Date().toISOString(), review: state, site: site };
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: "application/json" }));
    link.download = "progress-" + KEY.replace(/[^A-Za-z0-9-]+/g, "-") + ".json";
    document.body.appendChild(link);
    link.click();
    link.remove();
    importStatus.textContent = "Exported " + Object.keys(state.cards).length + " cards' schedules to " + link.download + ".";
  });
  function refuse(name, why) { importStatus.textContent = "Nothing imported: " + name + " " + why + " Your progress is unchanged."; }
  document.querySelector(".pd-import").addEventListener("change", function (event) {
    var input = event.target, chosen = input.files && input.files[0];
    if (!chosen) { return; }
    var reader = new FileReader();
    reader.onload = function () {
      input.value = "";
      var data;
      try { data = JSON.parse(String(reader.result)); } catch (e) { refuse(chosen.name, "is not a JSON file (" + e.message + ")."); return; }
      if (!data || data.format !== FORMAT || data.version !== 1) { refuse(chosen.name, "is not a progress file exported by this site."); return; }
      if (data.store !== KEY) { refuse(chosen.name, "holds the progress of another site (" + String(data.store) + ")."); return; }
      var review = validSchedule(data.review);
      var site = data.site;
      if (!review || (site !== null && (typeof site !== "object" || Array.isArray(site)))) {
        refuse(chosen.name, "is damaged (its schedule or progress is not as this site writes it)."); return;
      }
      try {
        window.localStorage.setItem(REVIEW, JSON.stringify(review));
        if (site === null) { window.localStorage.removeItem(KEY); } else { window.localStorage.setItem(KEY, JSON.stringify(site)); }
      } catch (e) { refuse(chosen.name, "could not be stored (" + e.message + ")."); return; }
      // The page reloads so that site.js reads the imported progress too.
      window.sessionStorage.setItem(REVIEW + ":imported", chosen.name + ": " + Object.keys(review.cards).length);
      window.location.reload();
    };
    reader.onerror = function () { refuse(chosen.name, "could not be read."); };
    reader.readAsText(chosen);
  });
  var imported = window.sessionStorage.getItem(REVIEW + ":imported");
  if (imported !== null) {
    window.sessionStorage.removeItem(REVIEW + ":imported");
    importStatus.textContent = "Imported " + imported + " cards' schedules.";
  }
  showPlan();
  show();
})();
