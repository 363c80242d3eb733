// Film chapters: browsers draw no menu for a chapters track, so the page lists the chapters and a click
// on one seeks the film to its start and plays from there; the chapter playing is marked aria-current.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("figure.film"), function (figure) {
    var video = figure.querySelector("video");
    var buttons = Array.prototype.slice.call(figure.querySelectorAll("button[data-start]"));
    var starts = buttons.map(function (button) { return parseFloat(button.getAttribute("data-start")); });
    function seek(start) {
      video.currentTime = start;
      var playing = video.play();
      if (playing && playing.catch) { playing.catch(function () {}); }  // a refused play still seeked
    }
    buttons.forEach(function (button, n) {
      button.addEventListener("click", function () {
        if (video.readyState >= 1) { seek(starts[n]); return; }
        video.addEventListener("loadedmetadata", function () { seek(starts[n]); }, { once: true });
        if (video.networkState === video.NETWORK_EMPTY) { video.load(); }
      });
    });
    function markCurrent() {
      var current = -1;
      starts.forEach(function (start, n) { if (video.currentTime >= start - 0.001) { current = n; } });
      buttons.forEach(function (button, n) {
        if (n === current) { button.setAttribute("aria-current", "true"); }
        else { button.removeAttribute("aria-current"); }
      });
    }
    video.addEventListener("timeupdate", markCurrent);
    video.addEventListener("seeked", markCurrent);
  });
})();
