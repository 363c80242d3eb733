// Quality chooser: swap a player's sources, poster and captions to the chosen rendering (narrated where that
// quality has a voice), keeping the position.
(function () {
  "use strict";
  var FORMATS = [["webm", "video/webm"], ["mp4", "video/mp4"]];
  function choose(select) {
    var option = select.options[select.selectedIndex];
    var figure = select.closest("figure");
    var video = figure.querySelector("video");
    var time = video.currentTime, playing = !video.paused;
    Array.prototype.forEach.call(video.querySelectorAll("source"), function (old) { old.remove(); });
    var before = video.querySelector("track, p");
    FORMATS.forEach(function (format) {
      var src = option.getAttribute("data-" + format[0]);
      if (!src) { return; }
      var source = document.createElement("source");
      source.setAttribute("src", src);
      source.setAttribute("type", format[1]);
      video.insertBefore(source, before);
    });
    var track = video.querySelector("track");
    if (track && option.hasAttribute("data-vtt")) { track.setAttribute("src", option.getAttribute("data-vtt")); }
    // A described rendering (render.py --describe) carries its audio descriptions as a track of their own.
    var descriptions = video.querySelector("track[kind=descriptions]");
    if (option.hasAttribute("data-descriptions")) {
      if (!descriptions) {
        descriptions = document.createElement("track");
        descriptions.setAttribute("kind", "descriptions");
        descriptions.setAttribute("srclang", document.documentElement.lang || "en");
        descriptions.setAttribute("label", pageText("audio_descriptions"));
        video.insertBefore(descriptions, video.querySelector("p"));
      }
      descriptions.setAttribute("src", option.getAttribute("data-descriptions"));
    } else if (descriptions) { descriptions.remove(); }
    if (option.hasAttribute("data-png")) { video.setAttribute("poster", option.getAttribute("data-png")); }
    else { video.removeAttribute("poster"); }
    video.setAttribute("width", option.getAttribute("data-width"));
    video.setAttribute("height", option.getAttribute("data-height"));
    var duration = figure.querySelector("span.duration");  // a narrated rendering runs longer than a silent one
    var seconds = Math.max(0, Math.floor(parseFloat(option.getAttribute("data-duration"))));
    if (duration && isFinite(seconds)) {
      duration.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    }
    var transcript = figure.querySelector("details.transcript");  // the narration's text, for narrated qualities
    if (transcript) { transcript.hidden = option.getAttribute("data-narrated") !== "true"; }
    Array.prototype.forEach.call(figure.querySelectorAll("a[data-format]"), function (link) {
      var href = option.getAttribute("data-" + link.getAttribute("data-format"));
      link.hidden = !href;
      if (href) { link.setAttribute("href", href); }
    });
    video.addEventListener("loadedmetadata", function () {
      if (time > 0) { video.currentTime = Math.min(time, video.duration); }
      if (playing) { video.play(); }
    }, { once: true });
    video.load();
  }
  Array.prototype.forEach.call(document.querySelectorAll("select.quality"), function (select) {
    select.addEventListener("change", function () { choose(select); });
  });

  // Portrait renderings (render.py --aspect portrait): on a narrow screen (below 600 CSS px) or one taller than
  // wide, each option whose quality has one plays it; turning the phone chooses again, keeping the position
  // (choose() does). The option's data-* describe what it plays now, data-alt-* the other frame: a swap exchanges
  // them, so the rest of the page (Step mode, downloads, transcript) reads data-* as always.
  var upright = window.matchMedia("(max-width: 599.98px), (orientation: portrait)");
  var SWAPPED = ["aspect", "webm", "mp4", "gif", "png", "vtt", "width", "height", "duration", "narrated", "beats",
                 "fps"];
  function swap(option) {
    SWAPPED.forEach(function (name) {
      var here = option.getAttribute("data-" + name), there = option.getAttribute("data-alt-" + name);
      if (there === null) { option.removeAttribute("data-" + name); } else { option.setAttribute("data-" + name, there); }
      if (here === null) { option.removeAttribute("data-alt-" + name); } else { option.setAttribute("data-alt-" + name, here); }
    });
    var label = option.textContent;  // "480p · 15 fps" <-> "480p portrait · 15 fps"
    option.textContent = option.getAttribute("data-alt-label");
    option.setAttribute("data-alt-label", label);
  }
  function fitAspect(select, initial) {
    var wanted = upright.matches ? "portrait" : "landscape", changed = false;
    Array.prototype.forEach.call(select.options, function (option) {
      if (!option.hasAttribute("data-alt-width")) { return; }  // this quality was rendered in one frame only
      var now = option.getAttribute("data-aspect") || "landscape";
      var other = option.getAttribute("data-alt-aspect") || "landscape";
      if (now !== wanted && other === wanted) {
        swap(option);
        changed = changed || option.selected;
      }
    });
    if (!changed) { return; }
    var option = select.options[select.selectedIndex], figure = select.closest("figure");
    if (initial && option.hasAttribute("data-beats")) {  // Step mode reads the figure's beats when it starts
      figure.setAttribute("data-beats", option.getAttribute("data-beats"));
      figure.setAttribute("data-fps", option.getAttribute("data-fps"));
    }
    figure.setAttribute("data-aspect", option.getAttribute("data-aspect") || "landscape");
    if (initial) { choose(select); } else { select.dispatchEvent(new Event("change")); }
  }
  var swappable = Array.prototype.filter.call(document.querySelectorAll("select.quality"), function (select) {
    return select.querySelector("option[data-alt-width]");
  });
  swappable.forEach(function (select) { fitAspect(select, true); });
  upright.addEventListener("change", function () {
    swappable.forEach(function (select) { fitAspect(select, false); });
  });
})();
