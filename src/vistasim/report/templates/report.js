"use strict";
// vistasim report: opens episodes named by the URL (#ep-ID, #ep-ID/evN), draws their transcripts
// from the JSON data block, and filters scenarios. Text is only ever set with textContent.
(function () {
  var block = document.getElementById("report-data");
  var data = null;
  function load() {
    if (data === null) { data = JSON.parse(block.textContent); }
    return data;
  }

  function lines(id, depth) {
    var ep = load().episodes[id];
    if (!ep || ep.lines === null) { return null; }
    var own = ep.lines.map(function (l) { return { l: l, shared: false }; });
    if (ep.parent && depth < 200) {
      var before = lines(ep.parent, depth + 1);
      if (before) {
        var shared = before.slice(0, ep.prefix).map(function (x) { return { l: x.l, shared: true }; });
        if (shared.length) { shared.push({ fork: ep.parent }); }
        return shared.concat(own);
      }
    }
    return own;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function link(href, text) {
    var a = el("a", null, text);
    a.href = href;  // always "#..." built here from ids, never a URL taken from the run
    return a;
  }

  function fact(dl, name, value) {
    dl.appendChild(el("dt", null, name));
    var dd = el("dd");
    if (typeof value === "string") { dd.textContent = value; } else { dd.appendChild(value); }
    dl.appendChild(dd);
  }

  function facts(id, ep) {
    var dl = el("dl", "facts");
    if (ep.why) { fact(dl, "why", ep.why); }
    if (ep.failures.length) {
      var list = el("div");
      ep.failures.forEach(function (f) {
        var row = el("div");
        row.appendChild(link("#cause-" + f, f));
        row.appendChild(document.createTextNode(" " + (load().failures[f] || "")));
        list.appendChild(row);
      });
      fact(dl, "failures", list);
    }
    fact(dl, "stop", ep.stop + (ep.detail ? " \u2014 " + ep.detail : ""));
    var b = ep.branch;
    if (b) {
      var from = el("span");
      from.appendChild(link("#ep-" + b.parent, b.parent));
      from.appendChild(document.createTextNode(", at turn " + b.turn + " \u00b7 " + b.status +
        (b.detail ? " (" + b.detail + ")" : "")));
      fact(dl, "branch of", from);
      fact(dl, "junction", b.chooser + (b.rationale ? ": " + b.rationale : ""));
      fact(dl, "replaced", "\u201c" + b.replaced + "\u201d");
      var cands = el("div");
      b.candidates.forEach(function (c) {
        var cos = c[2] === null ? "" : ", cos " + c[2].toFixed(2);
        cands.appendChild(el("div", c[3] ? "chosen" : null,
          (c[3] ? "played " : "") + c[1] + cos + ": \u201c" + c[0] + "\u201d"));
      });
      fact(dl, "candidates", cands);
    }
    if (ep.realism) {
      var scores = el("div");
      ep.realism.forEach(function (r) {
        scores.appendChild(el("div", null, r[0].replace(/_/g, " ") + " " + r[1] + "/3: " + r[2]));
      });
      fact(dl, "realism", scores);
    }
    var spent = ep.spent;
    fact(dl, "spent", spent[0] + " model tokens \u00b7 $" + spent[1].toFixed(4) +
      (spent[2] === null ? "" : " \u00b7 wall " + spent[2] + " s"));
    return dl;
  }

  function cut(text, size) {
    return text.length > size ? text.slice(0, size - 1) + "\u2026" : text;
  }

  function why(ep) {
    return ep.why || ep.failures.map(function (f) { return load().failures[f] || f; }).join("; ");
  }

  function nodeSummary(id, ep, inner) {
    var summary = el("summary", "node " + ep.verdict);
    if (ep.verdict === "failed") {
      summary.appendChild(el("span", "leafmark", inner ? "\u00d7 " : "\u2717 "));
    }
    summary.appendChild(el("code", null, id));
    var reason = why(ep);
    summary.appendChild(el("span", "muted", " " + ep.verdict.replace(/_/g, " ") + " \u00b7 " +
      ep.turns + " turns \u00b7 " + ep.stop + (reason ? " \u00b7 " + cut(reason, 90) : "")));
    var b = ep.branch;
    if (b) {
      var cos = b.cosine === null ? "" : ", cos " + b.cosine.toFixed(2);
      summary.appendChild(el("span", "junction", "turn " + b.turn + ": \u201c" + cut(b.replaced, 50) +
        "\u201d \u2192 \u201c" + cut(b.played, 50) + "\u201d (" + b.source + cos + ")"));
    }
    return summary;
  }

  function tree(list, nodes) {
    nodes.forEach(function (n) {
      var li = el("li");
      if (n[0] === null) {
        li.appendChild(el("span", "muted", n[1]));
      } else {
        var ep = load().episodes[n[0]];
        var node = el("details", "episode");
        node.id = "ep-" + n[0];
        node.appendChild(nodeSummary(n[0], ep, n[1].length > 0));
        node.appendChild(el("div", "body"));
        li.appendChild(node);
        if (n[1].length) {
          var below = el("ul");
          tree(below, n[1]);
          li.appendChild(below);
        }
      }
      list.appendChild(li);
    });
  }

  function buildScenario(details) {
    var body = details.querySelector(".body");
    if (!body || body.getAttribute("data-drawn")) { return; }
    body.setAttribute("data-drawn", "1");
    var s = load().scenarios[details.id.slice(3)];
    if (!s) { return; }
    var dl = el("dl", "facts");
    fact(dl, "goal", s.goal);
    fact(dl, "persona", s.persona + (s.profile ? " \u2014 " + s.profile : ""));
    if (s.criteria.length) {
      var list = el("ul");
      s.criteria.forEach(function (c) { list.appendChild(el("li", null, c)); });
      fact(dl, "criteria", list);
    } else {
      fact(dl, "criteria", "none (only the detectors judge)");
    }
    if (s.tags.length) { fact(dl, "tags", s.tags.join(", ")); }
    fact(dl, "k of n", s.passed + " of " + s.judged + " judged linear rollouts passed" +
      (s.branches ? "; " + s.branches + " branches" : ""));
    body.appendChild(dl);
    body.appendChild(el("h4", null, s.branches ?
      "Episodes: rollouts, and each branch under the episode it forked from" : "Episodes"));
    var root = el("ul", "tree");
    tree(root, s.tree);
    body.appendChild(root);
  }

  function draw(body) {
    if (body.getAttribute("data-drawn")) { return; }
    body.setAttribute("data-drawn", "1");
    var id = body.parentElement.id.slice(3);
    var ep = load().episodes[id];
    if (!ep) { return; }
    body.appendChild(facts(id, ep));
    var all = ep.lines === null ? null : lines(id, 0);
    if (!all) {
      body.appendChild(el("p", "muted", "Transcript not embedded (the report's size budget): " +
        "vistasim show " + load().run + " --episode " + id + " prints it."));
      return;
    }
    var box = el("div", "transcript");
    var images = load().images;
    all.forEach(function (item) {
      if (item.fork) {
        box.appendChild(el("div", "fork", "the branch starts here; above: shared with " + item.fork));
        return;
      }
      var l = item.l;
      var row = el("div", "line " + l[0] + (l[3] ? "" : " bad") + (item.shared ? " shared" : ""));
      if (l[5] !== null) { row.setAttribute("data-event", String(l[5])); }
      row.appendChild(el("span", "turn", "[" + l[1] + "]"));
      row.appendChild(el("span", "who", l[0]));
      row.appendChild(el("span", "text", l[2]));
      if (l[4]) { row.appendChild(el("span", "effect", "effect: " + l[4])); }
      if (l[6]) {
        if (Object.prototype.hasOwnProperty.call(images, l[6])) {
          var img = el("img", "shot");
          img.alt = "screenshot after this action";
          img.src = images[l[6]];
          row.appendChild(img);
        } else {
          row.appendChild(el("span", "effect", "(screenshot not embedded)"));
        }
      }
      box.appendChild(row);
    });
    body.appendChild(box);
  }

  function openEpisode(id, eventId) {
    var ep = load().episodes[id];
    if (!ep) { return; }
    var scenario = document.getElementById("sc-" + ep.scenario);
    if (scenario) { buildScenario(scenario); }
    var node = document.getElementById("ep-" + id);
    if (!node) { return; }
    for (var up = node; up; up = up.parentElement) {
      if (up.tagName === "DETAILS") { up.open = true; }
    }
    var body = node.querySelector(".body");
    if (body) { draw(body); }
    var box = node.querySelector(".transcript");
    var target = node;
    if (eventId && box) {
      box.querySelectorAll(".hit").forEach(function (h) { h.classList.remove("hit"); });
      var hits = box.querySelectorAll('[data-event="' + eventId + '"]');
      hits.forEach(function (h) { h.classList.add("hit"); });
      if (hits.length) { target = hits[0]; }
    }
    target.scrollIntoView({ block: "start" });
  }

  function route() {
    var hash;
    try { hash = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var match = /^ep-(.+?)(?:\/ev(\d+))?$/.exec(hash);
    if (match) { openEpisode(match[1], match[2]); return; }
    var other = document.getElementById(hash);
    if (other) {
      for (var up = other; up; up = up.parentElement) {
        if (up.tagName === "DETAILS") { up.open = true; }
      }
      other.scrollIntoView({ block: "start" });
    }
  }

  document.addEventListener("toggle", function (event) {
    var node = event.target;
    if (node.classList && node.classList.contains("scenario") && node.open) { buildScenario(node); }
    if (node.classList && node.classList.contains("episode") && node.open) {
      var body = node.querySelector(".body");
      if (body) { draw(body); }
    }
  }, true);
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.classList && target.classList.contains("shot")) { target.classList.toggle("big"); return; }
    var link = target.closest ? target.closest("a[href^='#']") : null;
    if (link && link.getAttribute("href") === location.hash) { route(); }
  });
  window.addEventListener("hashchange", route);

  function filter() {
    var outcome = document.getElementById("f-outcome").value;
    var tag = document.getElementById("f-tag").value;
    var mode = document.getElementById("f-mode").value;
    var shown = 0;
    document.querySelectorAll("details.scenario").forEach(function (node) {
      var ok = (!outcome || JSON.parse(node.getAttribute("data-outcomes")).indexOf(outcome) >= 0) &&
        (!tag || JSON.parse(node.getAttribute("data-tags")).indexOf(tag) >= 0) &&
        (!mode || JSON.parse(node.getAttribute("data-modes")).indexOf(mode) >= 0);
      node.hidden = !ok;
      if (ok) { shown += 1; }
    });
    document.getElementById("f-count").textContent = shown + " shown";
  }
  ["f-outcome", "f-tag", "f-mode"].forEach(function (id) {
    var control = document.getElementById(id);
    if (control) { control.addEventListener("change", filter); }
  });
  if (location.hash) { route(); }
  document.documentElement.setAttribute("data-ready", "1");
})();
