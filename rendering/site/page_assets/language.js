// Language switch (render.py --language): the other language's page opens at the same clip, at the same beat and
// the same share of it (the two languages time their beats apart: a French caption or voice runs longer), playing
// if it was. The place travels in the link's fragment: #at=<figure id>:<beat>:<share of the beat>:<1 if playing>
// (beat -1: a clip without beats, the share then its seconds).
(function () {
  "use strict";
  var KEY = "#at=";
  var watched = null;  // the video last played or moved in
  Array.prototype.forEach.call(document.querySelectorAll("figure video"), function (video) {
    ["play", "seeked"].forEach(function (name) {
      video.addEventListener(name, function () { watched = video; });
    });
  });
  function beatsOf(figure) {
    try { return JSON.parse(figure.getAttribute("data-beats") || "[]"); } catch (error) { return []; }
  }
  function place(video) {
    var beats = beatsOf(video.closest("figure")), time = video.currentTime;
    for (var i = 0; i < beats.length; i++) {
      if (time < beats[i][1] || i === beats.length - 1) {
        var span = beats[i][1] - beats[i][0];
        return [i, span > 0 ? Math.min(1, Math.max(0, (time - beats[i][0]) / span)) : 0];
      }
    }
    return [-1, time];
  }
  Array.prototype.forEach.call(document.querySelectorAll("a[data-language-switch]"), function (link) {
    link.addEventListener("click", function () {
      var href = link.getAttribute("href").split("#")[0];
      var figure = watched && watched.closest("figure");
      if (figure && figure.id) {
        var at = place(watched);
        href += KEY + encodeURIComponent(figure.id) + ":" + at[0] + ":" + at[1].toFixed(4) + ":" +
          (watched.paused ? 0 : 1);
      }
      link.setAttribute("href", href);  // followed as the click goes on
    });
  });
  if (location.hash.indexOf(KEY) !== 0) { return; }
  var parts = decodeURIComponent(location.hash.slice(KEY.length)).split(":");
  var figure = document.getElementById(parts[0]);
  var video = figure && figure.querySelector("video");
  if (!video) { return; }
  var beat = parseInt(parts[1], 10), share = parseFloat(parts[2]);
  function seek() {
    var beats = beatsOf(figure), time = 0;
    if (beat >= 0 && beat < beats.length && isFinite(share)) {
      time = beats[beat][0] + share * (beats[beat][1] - beats[beat][0]);
    } else if (beat < 0 && isFinite(share)) { time = share; }
    video.currentTime = Math.min(time, isFinite(video.duration) ? video.duration : time);
    if (parts[3] === "1") { video.play().catch(function () {}); }  // a browser may want a click first
  }
  figure.scrollIntoView();
  if (video.readyState >= 1) { seek(); } else { video.addEventListener("loadedmetadata", seek, { once: true }); }
})();
