// Step mode: a clip (or the film) stops at the end of each beat; the teacher goes on when the class is ready.
// Right / Space / PageDown / "Next" play the next beat, Left / PageUp replay the previous one, Home goes back to
// the start; the beat list jumps to any beat. The keys act on the player that has the focus, else on the one
// last used. The mode is one switch for the whole page, remembered in localStorage; the beat being played is
// announced in a live region. Beat times come from the manifest (data-beats: [[start, end], ...] in seconds),
// per quality, since a narrated rendering's beats last longer than a silent one's. A reader whose system asks
// for reduced motion finds it on, until they switch it off. What it announces is in the page's language
// (pageText, messages.js).
(function () {
  "use strict";
  var STORE = "step-mode:" + window.location.pathname;
  var figures = Array.prototype.slice.call(document.querySelectorAll("figure[data-beats]"));
  if (!figures.length) { return; }
  var players = [];
  var active = null;

  function remembered() {  // true or false as the reader last set it; null where never set
    try {
      var kept = window.localStorage.getItem(STORE);
      return kept === null ? null : kept === "on";
    } catch (e) { return null; }
  }
  function prefersLessMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }
  function remember(on) {
    try { window.localStorage.setItem(STORE, on ? "on" : "off"); } catch (e) { /* private mode: not kept */ }
  }

  function Player(figure) {
    this.figure = figure;
    this.video = figure.querySelector("video");
    this.panel = figure.querySelector(".step");
    this.toggle = figure.querySelector("button.step-toggle");
    this.status = figure.querySelector(".step-status");
    this.beatButtons = Array.prototype.slice.call(figure.querySelectorAll("button[data-beat]"));
    this.captions = this.beatButtons.map(function (b) { return b.getAttribute("data-caption"); });
    this.on = false;
    this.current = -1;     // the beat playing or last played; -1 before the first
    this.stopAt = null;    // the end of the beat playing, where the video pauses
    this.readBeats(figure.getAttribute("data-beats"), figure.getAttribute("data-fps"));
    var self = this;
    var select = figure.querySelector("select.quality");
    if (select) {
      select.addEventListener("change", function () {
        var option = select.options[select.selectedIndex];
        self.readBeats(option.getAttribute("data-beats"), option.getAttribute("data-fps"));
        self.stopAt = null;
      });
    }
    this.toggle.addEventListener("click", function () { active = self; setMode(!self.on); });
    figure.querySelector("button.step-next").addEventListener("click", function () { active = self; self.next(); });
    figure.querySelector("button.step-prev").addEventListener("click", function () { active = self; self.previous(); });
    figure.querySelector("button.step-home").addEventListener("click", function () { active = self; self.home(); });
    this.beatButtons.forEach(function (button, n) {
      button.addEventListener("click", function () { active = self; self.playBeat(n); });
    });
    figure.addEventListener("focusin", function () { active = self; });
    this.video.addEventListener("play", function () { self.watch(); });
    this.video.addEventListener("seeked", function () { if (!self.video.paused) { self.watch(); } });
  }

  Player.prototype.readBeats = function (json, fps) {
    try { this.beats = JSON.parse(json || "[]"); } catch (e) { this.beats = []; }
    this.frame = 1 / (parseFloat(fps) || 30);
  };

  // The beat a time belongs to; a video paused on a beat's last frame (within a frame of the next beat) counts as
  // at the next one, so that pressing the video's own play button there goes on rather than stopping at once.
  Player.prototype.beatAt = function (time) {
    for (var n = this.beats.length - 1; n >= 0; n--) {
      if (time >= this.beats[n][0] - this.frame) { return n; }
    }
    return 0;
  };

  Player.prototype.announce = function (text) { this.status.textContent = text; };

  Player.prototype.mark = function () {
    var current = this.current;
    this.beatButtons.forEach(function (button, n) {
      if (n === current) { button.setAttribute("aria-current", "step"); } else { button.removeAttribute("aria-current"); }
    });
  };

  // While a beat plays in Step mode, look at the clock every animation frame (a video frame at 60 fps is 16.7 ms;
  // timeupdate comes only every 250 ms) and pause on the beat's last frame.
  Player.prototype.watch = function () {
    if (!this.on || !this.beats.length) { return; }
    var self = this;
    if (this.stopAt === null) {  // played with the video's own controls: stop at the end of the beat it is in
      this.current = this.beatAt(this.video.currentTime);
      this.stopAt = this.beats[this.current][1];
      this.mark();
    }
    function check() {
      if (!self.on || self.stopAt === null || self.video.paused) { return; }
      var time = self.video.currentTime;
      var lastFrame = self.stopAt - self.frame;
      // Within half a frame of the beat's last frame, or past it: pause (a clip's end pauses on its own).
      if (time >= lastFrame + self.frame / 2 - 0.004 || time >= self.stopAt) {
        self.video.pause();
        if (time >= self.stopAt && self.stopAt < self.video.duration - self.frame / 2) {
          self.video.currentTime = lastFrame + self.frame / 2;  // back onto the beat's own last frame
        }
        self.stopAt = null;
        var n = self.current;
        self.announce(n + 1 < self.beats.length
          ? pageText("end_of_beat", {n: n + 1, total: self.beats.length, next: self.captions[n + 1]})
          : pageText("end_of_clip", {n: n + 1, total: self.beats.length}));
        return;
      }
      window.requestAnimationFrame(check);
    }
    window.requestAnimationFrame(check);
  };

  Player.prototype.playBeat = function (n) {
    if (!this.beats.length) { return; }
    n = Math.max(0, Math.min(this.beats.length - 1, n));
    var self = this, video = this.video;
    this.current = n;
    this.stopAt = this.on ? this.beats[n][1] : null;
    this.mark();
    this.announce(pageText("beat", {n: n + 1, total: this.beats.length, caption: this.captions[n]}));
    function go() {
      video.currentTime = self.beats[n][0];
      var playing = video.play();
      if (playing && playing.catch) { playing.catch(function () {}); }
      self.watch();
    }
    if (video.readyState >= 1) { go(); return; }
    video.addEventListener("loadedmetadata", go, { once: true });
    if (video.networkState === video.NETWORK_EMPTY) { video.load(); }
  };

  Player.prototype.next = function () {
    if (this.current + 1 >= this.beats.length) { this.announce(pageText("last_beat")); return; }
    this.playBeat(this.current + 1);
  };
  Player.prototype.previous = function () { this.playBeat(this.current - 1); };
  Player.prototype.home = function () {
    this.video.pause();
    this.current = -1;
    this.stopAt = null;
    this.mark();
    this.video.currentTime = 0;
    this.announce(pageText("back_at_start", {next: this.captions[0]}));
  };

  Player.prototype.setOn = function (on) {
    this.on = on;
    this.toggle.setAttribute("aria-pressed", on ? "true" : "false");
    this.panel.classList.toggle("stepping", on);
    Array.prototype.forEach.call(this.panel.querySelectorAll(".step-only"), function (el) { el.hidden = !on; });
    if (!on) { this.stopAt = null; }
  };

  function setMode(on) {
    players.forEach(function (player) { player.setOn(on); });
    remember(on);
  }

  players = figures.map(function (figure) { return new Player(figure); });
  // a reader who asks for less motion gets Step mode first (each beat plays only when asked for), unless they
  // switched it off here before
  var kept = remembered();
  players.forEach(function (player) { player.setOn(kept === null ? prefersLessMotion() : kept); });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "INPUT" || target.tagName === "TEXTAREA")) {
      return;
    }
    var inside = target && target.closest ? target.closest("figure[data-beats]") : null;
    var player = inside ? players[figures.indexOf(inside)] : active;
    if (!player || !player.on) { return; }
    var key = event.key;
    if (key === " " && target && target.tagName === "BUTTON") { return; }  // Space presses a focused button
    if (key === "ArrowRight" || key === " " || key === "PageDown") { player.next(); }
    else if (key === "ArrowLeft" || key === "PageUp") { player.previous(); }
    else if (key === "Home") { player.home(); }
    else { return; }
    active = player;
    event.preventDefault();
  });
})();
