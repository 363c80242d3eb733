// The deck's player: one slide per beat; a slide plays its beat once and holds on the last frame. The deck opens
// still, on its slide's poster: the first Right / Space / Next plays it.
// Keys: Right / Space / PageDown (a presentation clicker) next, Left / PageUp previous, Home first, End last,
// N speaker notes, F full screen. The slide number is kept in the address (#3), so a reload stays put.
(function () {
  "use strict";
  var slides = Array.prototype.slice.call(document.querySelectorAll("section.slide"));
  var counter = document.querySelector(".counter");
  var status = document.querySelector(".status");
  var notesButton = document.querySelector(".toggle-notes");
  var current = -1;
  var notesShown = false;
  var asked = false;  // nothing plays until the presenter asks: no sound on its own (WCAG 1.4.2)
  // What the player announces, in the deck's language: deck.html's JSON block, read and filled by the page's
  // pageText (messages.js, loaded before this script).

  function video(n) { return slides[n].querySelector("video"); }

  function play(n) {
    asked = true;
    var v = video(n);
    v.currentTime = 0;
    var started = v.play();
    if (started && started.catch) {
      started.catch(function () { status.textContent = pageText("press_to_play_slide"); });
    }
  }

  function forward() {  // the first "next" plays the slide the deck opened on; each one after moves on
    if (asked) { show(current + 1); } else { play(current); }
  }

  function show(n, waiting) {
    n = Math.max(0, Math.min(slides.length - 1, n));
    slides.forEach(function (slide, k) {  // only slide n shows (a deck opened at #7 starts with slide 1 shown)
      if (k !== n) { video(k).pause(); slide.hidden = true; }
    });
    current = n;
    slides[n].hidden = false;
    counter.textContent = (n + 1) + " / " + slides.length;
    var caption = slides[n].querySelector(".caption").textContent;
    status.textContent = pageText("slide", {n: n + 1, total: slides.length, caption: caption});
    if (n + 1 < slides.length) { video(n + 1).preload = "auto"; }  // the next beat is ready when asked for
    if (window.location.hash !== "#" + (n + 1)) { history.replaceState(null, "", "#" + (n + 1)); }
    if (waiting) { status.textContent += " " + pageText("press_to_play_it"); } else { play(n); }
  }

  function setNotes(shown) {
    notesShown = shown;
    slides.forEach(function (slide) { slide.querySelector(".notes").hidden = !shown; });
    notesButton.setAttribute("aria-pressed", shown ? "true" : "false");
    document.body.classList.toggle("with-notes", shown);
  }

  function fullscreen() {
    if (document.fullscreenElement) { document.exitFullscreen(); }
    else if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen(); }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var key = event.key;
    if (key === " " && event.target && event.target.tagName === "BUTTON") { return; }  // it presses the button
    var handled = true;
    if (key === "ArrowRight" || key === " " || key === "PageDown") { forward(); }
    else if (key === "ArrowLeft" || key === "PageUp") { show(current - 1); }
    else if (key === "Home") { show(0); }
    else if (key === "End") { show(slides.length - 1); }
    else { handled = false; }  // no letter keys (WCAG 2.1.4): the notes and full screen are buttons
    if (handled) { event.preventDefault(); }
  });
  document.querySelector(".next").addEventListener("click", forward);
  document.querySelector(".prev").addEventListener("click", function () { show(current - 1); });
  document.querySelector(".replay").addEventListener("click", function () { play(current); });
  notesButton.addEventListener("click", function () { setNotes(!notesShown); });
  document.querySelector(".fullscreen").addEventListener("click", fullscreen);
  slides.forEach(function (slide, n) {
    video(n).addEventListener("ended", function () {
      if (n === current) { status.textContent = pageText("end_of_slide", {n: n + 1, total: slides.length}); }
    });
  });

  var start = parseInt(window.location.hash.slice(1), 10);
  show(isFinite(start) && start >= 1 ? start - 1 : 0, true);
})();
