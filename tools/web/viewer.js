// cardc game viewer: draws one recorded step (tools/views.py) at a time; buttons and the arrow keys step.
(function () {
  "use strict";
  var steps = JSON.parse(document.getElementById("steps").textContent);
  var at = 0;

  // Every value is set as text, never as markup: card names and log lines stay text.
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function group(g) {
    var box = el("div", "group");
    box.appendChild(el("h4", "", g.name));
    if (g.facts.length) {
      var facts = el("p", "facts");
      g.facts.forEach(function (f) {
        var fact = el("span", "fact");
        fact.appendChild(el("b", "", f[0]));
        fact.appendChild(document.createTextNode(f[1]));
        facts.appendChild(fact);
      });
      box.appendChild(facts);
    }
    if (g.items.length) {
      var list = el("ul");
      g.items.forEach(function (item) { list.appendChild(el("li", "", item)); });
      box.appendChild(list);
    }
    return box;
  }

  function panel(p) {
    var box = el("div", "panel");
    box.appendChild(el("h3", "", p.name));
    p.groups.forEach(function (g) { box.appendChild(group(g)); });
    return box;
  }

  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[at];
    document.getElementById("counter").textContent = "step " + (at + 1) + " of " + steps.length;
    document.getElementById("title").textContent = step.title;
    document.getElementById("action").textContent = step.action;
    document.getElementById("end").textContent = step.end;
    var log = document.getElementById("log");
    log.replaceChildren.apply(log, step.log.map(function (line) { return el("li", "", line); }));
    var panels = document.getElementById("panels");
    panels.replaceChildren.apply(panels, step.panels.map(panel));
    document.getElementById("prev").disabled = at === 0;
    document.getElementById("first").disabled = at === 0;
    document.getElementById("next").disabled = at === steps.length - 1;
    document.getElementById("last").disabled = at === steps.length - 1;
  }

  var moves = { first: function () { return 0; }, prev: function () { return at - 1; },
                next: function () { return at + 1; }, last: function () { return steps.length - 1; } };
  Object.keys(moves).forEach(function (id) {
    document.getElementById(id).addEventListener("click", function () { show(moves[id]()); });
  });
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    if (keys[event.key]) {
      event.preventDefault();
      show(moves[keys[event.key]]());
    }
  });
  show(0);
})();
