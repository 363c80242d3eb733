// Captions under the picture, not over it. A browser draws a captions track over the video's bottom lines,
// where every clip has text of its own (a portrait clip's lowest row, a moral, a table's last line). So the page
// keeps each captions track "hidden" (its cues still fire) and writes the cue now playing into a line just
// under the player. Picking captions in the player's own menu shows them on the video instead, not twice.
(function () {
  function showUnder(video) {
    var element = video.querySelector('track[kind="captions"]');
    if (!element) { return; }
    var line = document.createElement("p");
    line.className = "cue-line";
    video.insertAdjacentElement("afterend", line);
    var track = element.track;
    if (track.mode === "showing" || track.mode === "disabled") { track.mode = "hidden"; }
    function draw() {
      var cues = track.mode === "hidden" && track.activeCues ? Array.prototype.slice.call(track.activeCues) : [];
      line.replaceChildren.apply(line, cues.map(function (cue) { return cue.getCueAsHTML(); }));
    }
    track.addEventListener("cuechange", draw);
    video.textTracks.addEventListener("change", draw);
  }
  Array.prototype.forEach.call(document.querySelectorAll("figure video"), showUnder);
})();
