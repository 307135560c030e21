// The study site's behaviour: flip cards, clozes, label figures, questions that answer
// on the spot, practice blocks with fresh numbers, progress kept on this device.
// Typed answers are read and judged by the one answer rule (assets/answers.js, the
// global ``paperdeckAnswers``), as on the cards and in ``paperdeck grade``. Nothing is
// sent anywhere: progress is one localStorage entry per site, named by the site's identity
// (its paper and recipe, generator/identity.py ``site_store``), since every file:// page
// shares one storage. ES5, like the cards.
(function () {
  "use strict";
  var answers = window.paperdeckAnswers;
  var root = document.documentElement;
  var KEY = root.getAttribute("data-store") || "paperdeck:site";
  // Where sites before site_store kept progress (paper id and folder name): moved once.
  var OLD = "paperdeck:" + (root.getAttribute("data-site") || "site");
  var state = load();

  function stored() {
    var storage = window.localStorage, text = storage.getItem(KEY);
    if (text === null && OLD !== KEY && storage.getItem(OLD) !== null) {
      text = storage.getItem(OLD);
      storage.setItem(KEY, text);
      storage.removeItem(OLD);
    }
    return text;
  }
  function load() {
    var s = null;
    try { s = JSON.parse(stored() || "null"); } catch (e) { s = null; }
    s = s && typeof s === "object" ? s : {};
    s.known = s.known && typeof s.known === "object" ? s.known : {};
    s.answers = s.answers && typeof s.answers === "object" ? s.answers : {};
    return s;
  }
  function save() {
    try { window.localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) { /* private mode: this visit only */ }
  }
  function each(selector, f, root) {
    var nodes = (root || document).querySelectorAll(selector);
    for (var i = 0; i < nodes.length; i++) { f(nodes[i], i); }
  }
  function progressKey(el) { return el.getAttribute("data-lesson") + "/" + el.getAttribute("data-key"); }
  function interactive(target) { return target.closest && target.closest("a, button, input, textarea, summary, label"); }
  function say(el, right, message, extra) {
    el.className = "pd-feedback " + (right ? "pd-right" : "pd-wrong");
    el.textContent = message;
    if (extra) { el.appendChild(extra); }
  }
  function record(el, right) {
    state.answers[progressKey(el)] = right ? 1 : 0;
    save();
  }

  // Wide formulas and tables scroll inside their box, and a keyboard can reach the ones that
  // do. A box is measured when the browser lays it out anyway (a ResizeObserver reports it):
  // on screen at the first frame, further down when its block is first drawn (blocks off
  // screen are skipped, see site.css), in the worked steps when they open, on a resize. Until
  // then it clips (site.css), so no box scrolls that the keyboard cannot reach.
  function measure(entries) {
    for (var i = 0; i < entries.length; i++) {
      var box = entries[i].target;
      if (box.scrollWidth > box.clientWidth + 1) {
        var n = Array.prototype.indexOf.call(document.querySelectorAll(".pd-scroll"), box) + 1;
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Wide content " + n + ", scrolls sideways");
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  }
  var boxes = window.ResizeObserver ? new window.ResizeObserver(measure) : null;
  // Observed afresh (each box reported again once drawn) when new content or the math font
  // can change how wide a box's content is without changing the box's own size.
  function watch() {
    if (!boxes) { each(".pd-scroll", function (box) { box.style.overflowX = "auto"; }); return; }
    boxes.disconnect();
    each(".pd-scroll", function (box) { boxes.observe(box); });
  }
  watch();
  if (document.fonts && document.fonts.addEventListener) { document.fonts.addEventListener("loadingdone", watch); }

  // Flip cards: the button, a tap anywhere on the card, Enter or Space on the button.
  each(".pd-card", function (card) {
    var back = card.querySelector(".pd-back");
    var flip = card.querySelector(".pd-flip");
    if (!back || !flip) { return; }
    function toggle() {
      var open = back.hidden;
      back.hidden = !open;
      flip.setAttribute("aria-expanded", String(open));
      flip.textContent = open ? "Hide answer" : "Show answer";
    }
    flip.addEventListener("click", toggle);
    card.addEventListener("click", function (event) {
      if (interactive(event.target) || String(window.getSelection ? window.getSelection() : "")) { return; }
      toggle();
    });
  });

  // Clozes: the button reveals the next blank; a tap on a blank reveals that one.
  each(".pd-cloze", function (card) {
    var button = card.querySelector(".pd-reveal-blank");
    var extra = card.querySelector(".pd-extra");
    var numbers = [];
    each(".pd-blank", function (blank) {
      var n = Number(blank.getAttribute("data-c"));
      if (numbers.indexOf(n) < 0) { numbers.push(n); }
    }, card);
    numbers.sort(function (a, b) { return a - b; });
    var shown = {};
    function count() { var c = 0; for (var i = 0; i < numbers.length; i++) { if (shown[numbers[i]]) { c++; } } return c; }
    function reveal(n, on) {
      shown[n] = on;
      each('.pd-blank[data-c="' + n + '"]', function (blank) {
        if (on) { blank.classList.add("pd-shown"); } else { blank.classList.remove("pd-shown"); }
      }, card);
    }
    function update() {
      var c = count();
      if (c < numbers.length) {
        var next = 0;
        while (shown[numbers[next]]) { next++; }
        button.textContent = "Reveal blank " + (next + 1) + " of " + numbers.length;
      } else {
        button.textContent = "Hide the blanks";
      }
      if (extra) { extra.hidden = c < numbers.length; }
    }
    button.addEventListener("click", function () {
      if (count() < numbers.length) {
        for (var i = 0; i < numbers.length; i++) { if (!shown[numbers[i]]) { reveal(numbers[i], true); break; } }
      } else {
        for (var j = 0; j < numbers.length; j++) { reveal(numbers[j], false); }
      }
      update();
    });
    each(".pd-blank", function (blank) {
      blank.addEventListener("click", function () { reveal(Number(blank.getAttribute("data-c")), true); update(); });
    }, card);
    update();
  });

  // Worked examples: one step at a time.
  each(".pd-example", function (example) {
    var steps = example.querySelectorAll(".pd-steps > li");
    var result = example.querySelector(".pd-result");
    var actions = example.querySelector(".pd-js-only");
    var next = example.querySelector(".pd-next-step");
    var all = example.querySelector(".pd-all-steps");
    var n = 0;
    function show() {
      for (var i = 0; i < steps.length; i++) { steps[i].hidden = i >= n; }
      result.hidden = n < steps.length;
      next.textContent = n < steps.length ? "Show step " + (n + 1) + " of " + steps.length : "Start again";
      all.hidden = n >= steps.length;
    }
    actions.hidden = false;
    next.addEventListener("click", function () { n = n < steps.length ? n + 1 : 0; show(); });
    all.addEventListener("click", function () { n = steps.length; show(); next.focus(); });
    show();
  });

  // Label-the-part figures: a tap on a numbered box reveals the part it hides.
  each(".pd-labels", function (box) {
    var covers = box.querySelectorAll("button.pd-cover");
    var all = box.querySelector(".pd-reveal-all");
    function reveal(part, on) {
      each(".pd-cover", function (cover) {
        if (cover.getAttribute("data-part") !== part) { return; }
        if (on) { cover.classList.add("pd-shown"); } else { cover.classList.remove("pd-shown"); }
        if (cover.tagName === "BUTTON") {
          cover.setAttribute("aria-expanded", String(on));
          cover.setAttribute("aria-label", cover.getAttribute("aria-label").replace(/: (reveal|hide) it$/, on ? ": hide it" : ": reveal it"));
        }
      }, box);
      each("li[data-part]", function (li) {
        if (li.getAttribute("data-part") !== part) { return; }
        li.querySelector(".pd-label-answer").hidden = !on;
        li.querySelector(".pd-label-hidden").hidden = on;
      }, box);
    }
    function allShown() {
      for (var i = 0; i < covers.length; i++) { if (!covers[i].classList.contains("pd-shown")) { return false; } }
      return true;
    }
    for (var i = 0; i < covers.length; i++) {
      covers[i].addEventListener("click", function (event) {
        var cover = event.currentTarget;
        reveal(cover.getAttribute("data-part"), !cover.classList.contains("pd-shown"));
        all.textContent = allShown() ? "Cover all again" : "Reveal all";
      });
    }
    all.addEventListener("click", function () {
      var on = !allShown();
      for (var j = 0; j < covers.length; j++) { reveal(covers[j].getAttribute("data-part"), on); }
      all.textContent = on ? "Cover all again" : "Reveal all";
    });
  });

  // Marked as known: cards, clozes and label figures.
  each(".pd-recall", function (el) {
    var button = el.querySelector(".pd-known");
    if (!button) { return; }
    var key = progressKey(el);
    function show() {
      var known = Object.prototype.hasOwnProperty.call(state.known, key);
      button.setAttribute("aria-pressed", String(known));
      if (known) { el.classList.add("pd-is-known"); } else { el.classList.remove("pd-is-known"); }
    }
    button.addEventListener("click", function () {
      if (Object.prototype.hasOwnProperty.call(state.known, key)) { delete state.known[key]; } else { state.known[key] = 1; }
      save();
      show();
    });
    show();
  });

  // Questions that answer on the spot.
  function typedVerdict(expected, typed, tol, shown, mistakes) {
    // [right?, message, index of the first wrong number or -1, numbers read, index of the known
    // mistake they match or -1]: the cards' verdict (answers.js), word for word. ``shown``: the
    // key's numbers as the question asks for them (presentation.key_text), which it quotes.
    var said = answers.verdict(expected, typed, tol, shown, mistakes);
    return [said.right, said.message === null ? "Type your answer first." : said.message, said.wrong, said.got,
      said.mistake];
  }

  each(".pd-question", function (q) {
    var feedback = q.querySelector(".pd-feedback");
    var explanation = q.querySelector(".pd-explanation");
    each(".pd-option", function (option) {
      option.addEventListener("click", function () {
        var right = option.getAttribute("data-right") === "1";
        each(".pd-option", function (o) { o.classList.remove("pd-right", "pd-wrong"); }, q);
        option.classList.add(right ? "pd-right" : "pd-wrong");
        if (right) {
          say(feedback, true, "\u2714 Right.");
        } else {
          var why = option.parentNode.querySelector(".pd-why");
          var note = null;
          if (why) {
            note = document.createElement("span");
            note.className = "pd-mistake";
            note.innerHTML = " The mistake behind it: " + why.innerHTML;
          }
          say(feedback, false, "\u2718 Not this one.", note);
        }
        if (explanation) { explanation.hidden = !right; }
        record(q, right);
      });
    }, q);
    var form = q.querySelector(".pd-numeric");
    if (form) {
      var expected = [Number(form.getAttribute("data-expected"))];
      var tol = answers.tolerance(form.getAttribute("data-abs"), form.getAttribute("data-rel"));
      var shownKey = (form.getAttribute("data-shown") || "").split(" ");
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var verdict = typedVerdict(expected, form.querySelector("input").value, tol, shownKey);
        say(feedback, verdict[0], verdict[1]);
        if (verdict[3]) { record(q, verdict[0]); }
        if (explanation && verdict[0]) { explanation.hidden = false; }
      });
    }
    var show = q.querySelector(".pd-show-answer");
    if (show) {
      show.addEventListener("click", function () {
        var answer = q.querySelector(".pd-answer");
        answer.hidden = !answer.hidden;
        if (explanation) { explanation.hidden = answer.hidden; }
        show.textContent = answer.hidden ? show.textContent.replace(/^Hide/, "Show") : show.textContent.replace(/^Show/, "Hide");
      });
    }
  });

  // Practice blocks: today's problem (generator/today.js, the rule of the Problem cards'
  // variant.js), "New problem" walks through the others; the check names a known mistake.
  // A block starts once its problems are in ``paperdeckProblems``: at once on a lesson page, and
  // on the review page when review.js has loaded its problems' file (``paperdeckPractice``).
  function practice(block) {
    var variants = (window.paperdeckProblems || {})[block.getAttribute("data-key")];
    if (!variants || block.hasAttribute("data-started")) { return; }
    block.setAttribute("data-started", "");
    var feedback = block.querySelector(".pd-feedback");
    var input = block.querySelector("input");
    var key = block.querySelector("details.pd-key");
    var later = block.hasAttribute("data-later");  // written empty (pages.py numbers_later)
    var current = 0, keyShown = later ? -1 : 0;
    // The key and steps (the most math of a block) are written when they are opened:
    // a page of practice blocks shows today's problems without laying out 31 keys.
    function fill(i, inKey) {
      var v = variants[i];
      each("[data-pd]", function (slot) {
        if ((key.contains(slot)) !== inKey) { return; }
        var name = slot.getAttribute("data-pd");
        if (name === "number") { slot.textContent = String(i + 1); } else if (name === "seed") { slot.textContent = String(v.seed); } else if (Object.prototype.hasOwnProperty.call(v, name)) { slot.innerHTML = v[name]; }
      }, block);
      watch();
    }
    // Written before the key opens: a click on its summary (mouse, Enter, Space) runs before the
    // browser opens it, whereas "toggle" fires a frame or more after the key is drawn, which
    // showed the previous problem's key and command for that frame. "toggle" stays for an
    // opening without a click (find in page).
    function keyFor(i) { if (keyShown !== i) { fill(i, true); keyShown = i; } }
    key.querySelector("summary").addEventListener("click", function () { if (!key.open) { keyFor(current); } });
    key.addEventListener("toggle", function () { if (key.open) { keyFor(current); } });
    function show(i) {
      var v = variants[i];
      current = i;
      fill(i, false);
      if (key.open) { keyFor(i); }
      block.setAttribute("data-variant", String(i));
      block.setAttribute("data-seed", String(v.seed));
      feedback.className = "pd-feedback";
      feedback.textContent = "";
      input.value = "";
    }
    var questions = [];  // as on the cards: no two days in a row the same question
    for (var q = 0; q < variants.length; q++) { questions.push(variants[q].prompt); }
    var today = paperdeckToday.pick(block.getAttribute("data-key"), variants.length, paperdeckToday.day(), questions);
    if (today || later) { show(today); } else { block.setAttribute("data-variant", "0"); block.setAttribute("data-seed", String(variants[0].seed)); }
    // The next problem that reads differently: a problem type with few numbers to draw from
    // (mha-shapes has 6 questions among its 31 problems) repeats one in a row.
    block.querySelector(".pd-new").addEventListener("click", function () {
      var next = (current + 1) % variants.length;
      while (next !== current && variants[next].prompt === variants[current].prompt) { next = (next + 1) % variants.length; }
      show(next === current ? (current + 1) % variants.length : next);
    });
    block.querySelector("form").addEventListener("submit", function (event) {
      event.preventDefault();
      var v = variants[current];
      var known = [];
      for (var m = 0; m < v.mistakes.length; m++) { known.push(v.mistakes[m][1]); }
      var verdict = typedVerdict(v.expected, input.value, v.tol, v.shown.split(" "), known);
      var note = null;
      if (verdict[4] >= 0) {
        // The mistake is markup the site wrote (its math as MathML), not the reader's text.
        note = document.createElement("span");
        note.className = "pd-mistake";
        note.innerHTML = answers.MISTAKE + v.mistakes[verdict[4]][0] + ".";
      }
      say(feedback, verdict[0], verdict[1], note);
      if (verdict[3]) { record(block, verdict[0]); }
    });
  }
  each(".pd-practice", practice);
  window.paperdeckPractice = practice;

  // The index: progress per lesson, and a reset with a second step.
  function progress() {
    var totalKnown = 0, totalCards = 0, totalRight = 0, totalQuestions = 0;
    each(".pd-progress", function (el) {
      var prefix = el.getAttribute("data-lesson") + "/";
      var cards = Number(el.getAttribute("data-cards")), questions = Number(el.getAttribute("data-questions"));
      var known = 0, right = 0, k;
      for (k in state.known) { if (k.indexOf(prefix) === 0) { known++; } }
      for (k in state.answers) { if (k.indexOf(prefix) === 0 && state.answers[k]) { right++; } }
      el.textContent = known + " of " + cards + " cards known \u00b7 " + right + " of " + questions +
        " questions and problems answered right";
      totalKnown += known; totalCards += cards; totalRight += right; totalQuestions += questions;
    });
    var total = document.querySelector(".pd-total");
    if (total) {
      total.textContent = "Known: " + totalKnown + " of " + totalCards + " cards. Answered right: " +
        totalRight + " of " + totalQuestions + " questions and problems.";
    }
  }
  var reset = document.querySelector(".pd-reset");
  if (reset) {
    var confirm = document.querySelector(".pd-reset-confirm");
    var cancel = document.querySelector(".pd-reset-cancel");
    var ask = function (on) { confirm.hidden = !on; cancel.hidden = !on; reset.hidden = on; (on ? cancel : reset).focus(); };
    reset.addEventListener("click", function () { ask(true); });
    cancel.addEventListener("click", function () { ask(false); });
    confirm.addEventListener("click", function () {
      state = { known: {}, answers: {} };
      try { window.localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
      progress();
      ask(false);
    });
  }
  progress();

  // A lesson page says how many of its cards the review page (review.js) has due, and how many
  // it has not shown yet: the review schedule is the entry beside the progress (KEY + ":review").
  each(".pd-due", function (el) {
    var schedule = null;
    try { schedule = JSON.parse(window.localStorage.getItem(KEY + ":review") || "null"); } catch (e) { schedule = null; }
    var scheduled = schedule && schedule.cards && typeof schedule.cards === "object" ? schedule.cards : {};
    var due = 0, unseen = 0, now = Date.now();
    each("main [data-key][data-lesson]", function (card) {  // review.py REVIEWED
      var s = scheduled[progressKey(card)];
      if (!s) { unseen++; } else if (s.due <= now) { due++; }
    });
    el.textContent = "(" + due + " due now, " + unseen + " not reviewed yet)";
  });
})();
