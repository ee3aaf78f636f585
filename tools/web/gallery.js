// cardc gallery: the search box and the kind, cost and keyword filters hide the cards that do not match.
(function () {
  "use strict";
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));
  var search = document.getElementById("search");
  var kind = document.getElementById("kind");
  var cost = document.getElementById("cost");
  var keyword = document.getElementById("keyword");
  var count = document.getElementById("count");

  function matches(card, words) {
    var d = card.dataset;
    if (kind.value && d.kind !== kind.value) return false;
    if (cost.value !== "*" && d.cost !== cost.value) return false;
    if (keyword.value && d.keywords.split("|").indexOf(keyword.value) < 0) return false;
    var text = card.textContent.toLowerCase();
    return words.every(function (w) { return text.indexOf(w) >= 0; });
  }

  function update() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    cards.forEach(function (card) {
      card.hidden = !matches(card, words);
      if (!card.hidden) shown += 1;
    });
    count.textContent = shown + " of " + cards.length + " cards";
  }

  [search, kind, cost, keyword].forEach(function (input) {
    input.addEventListener("input", update);
    input.addEventListener("change", update);
  });
  update();
})();
