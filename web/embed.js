/*
 * raftlab embed script.
 *
 * Turns every <div data-raftlab="SCENARIO"></div> on the page into an iframe that runs the
 * raftlab app (index.html next to this script) with ?scenario=SCENARIO&embed=1 and the div's
 * other data-* attributes as URL parameters. The iframe is sized right away, loaded when it
 * comes near the viewport and told to pause when it leaves it; far from the viewport it is
 * released and comes back later at the same moment. Links in the prose with
 * data-raftlab-act drive a figure through its message API. See docs/embedding.md.
 */
(function () {
  "use strict";

  if (window.raftlabEmbed) {
    // Included twice: pick up any new figures and keep the first instance.
    window.raftlabEmbed.scan();
    return;
  }

  var script = document.currentScript;
  var appURL = new URL(
    (script && script.getAttribute("data-app")) || "index.html",
    (script && script.src) || window.location.href
  );
  var appOrigin = appURL.origin === "null" ? "*" : appURL.origin;

  var DEFAULT_ASPECT = "16 / 10";
  var DEFAULT_HEIGHT = 420; // px, used when the browser has no CSS aspect-ratio
  var MIN_HEIGHT = 240;     // px, floor for aspect-ratio sizing
  // On a narrow page (a phone) the app puts its panel under the machines, so a
  // figure needs more height than its width suggests: at least NARROW_HEIGHT,
  // or NARROW_SHARE of the window if that is less.
  var NARROW_WIDTH = 600;   // px
  var NARROW_HEIGHT = 560;  // px
  var NARROW_SHARE = 0.85;
  // Attributes read by this script; they do not become URL parameters.
  var OWN = { raftlab: true, height: true, aspect: true, title: true };
  // Parameters that the page itself sets.
  var RESERVED = { scenario: true, embed: true };
  // Parameters the app understands (besides scenario and embed).
  var KNOWN = {
    nodes: true, protocol: true, seed: true, speed: true, prevote: true, checkquorum: true,
    autoplay: true, theme: true, t: true, link: true, origins: true
  };
  // Figures further than FAR_MARGIN from the viewport are released (their page unloaded,
  // its WebGL context given back) and at most MAX_LIVE are loaded at once.
  var FAR_MARGIN = "200% 0px";
  var MAX_LIVE = 4;

  var supportsAspect = !!(window.CSS && CSS.supports && CSS.supports("aspect-ratio", "1 / 1"));
  var figures = [];

  function parseHeight(value) {
    var m = /^\s*(\d+)\s*(px)?\s*$/.exec(value);
    if (!m) return NaN;
    var n = parseInt(m[1], 10);
    return n >= 50 && n <= 4000 ? n : NaN;
  }

  // Accepts "16/10", "16:10", "16 / 10" or a single number such as "1.6".
  function parseAspect(value) {
    var m = /^\s*(\d+(?:\.\d+)?)\s*(?:[\/:]\s*(\d+(?:\.\d+)?))?\s*$/.exec(value);
    if (!m) return "";
    var w = parseFloat(m[1]);
    var h = m[2] === undefined ? 1 : parseFloat(m[2]);
    if (!(w > 0) || !(h > 0) || w / h < 0.2 || w / h > 5) return "";
    return w + " / " + h;
  }

  function showError(el, text) {
    el.textContent = "";
    var box = document.createElement("div");
    box.className = "raftlab-embed-error";
    box.setAttribute("role", "alert");
    box.style.cssText = "padding:12px 14px;border:1px solid #b3261e;border-radius:6px;" +
      "color:#b3261e;background:#fdf0ef;font:14px/1.4 system-ui,sans-serif;";
    box.textContent = "raftlab figure: " + text;
    el.appendChild(box);
    if (window.console) console.error("raftlab embed:", text, el);
  }

  // Reads a div's attributes. Returns {error} or {src, height, aspect, title}.
  function readFigure(el) {
    var scenario = (el.getAttribute("data-raftlab") || "").trim();
    if (!scenario) return { error: 'data-raftlab needs a scenario name, as in data-raftlab="majority".' };
    if (/\s/.test(scenario)) return { error: 'the scenario name "' + scenario + '" contains spaces.' };

    var url = new URL(appURL.href);
    url.searchParams.set("scenario", scenario);
    url.searchParams.set("embed", "1");
    for (var i = 0; i < el.attributes.length; i++) {
      var name = el.attributes[i].name.toLowerCase();
      if (name.indexOf("data-") !== 0) continue;
      var key = name.slice(5);
      if (OWN[key]) continue;
      if (RESERVED[key]) return { error: "data-" + key + " is set by the embed script and cannot be given." };
      if (!KNOWN[key] && window.console) {
        console.warn("raftlab embed: data-" + key + " is not a parameter the app knows; passing it on anyway.");
      }
      url.searchParams.set(key, el.attributes[i].value);
    }

    var fig = { src: url.href, height: 0, aspect: "", title: "" };
    var h = el.getAttribute("data-height");
    if (h !== null) {
      fig.height = parseHeight(h);
      if (isNaN(fig.height)) return { error: 'data-height="' + h + '" is not a height in pixels between 50 and 4000.' };
    }
    var a = el.getAttribute("data-aspect");
    if (a !== null) {
      fig.aspect = parseAspect(a);
      if (!fig.aspect) return { error: 'data-aspect="' + a + '" is not a ratio such as 16/10.' };
    } else {
      fig.aspect = DEFAULT_ASPECT;
    }
    fig.title = el.getAttribute("data-title") || ("raftlab simulation: " + scenario);
    return fig;
  }

  function post(fig, message) {
    if (!fig.loaded || !fig.iframe.contentWindow) return;
    fig.iframe.contentWindow.postMessage({ raftlab: message }, appOrigin);
  }

  function setVisible(fig, visible) {
    if (fig.visible === visible) return;
    fig.visible = visible;
    post(fig, visible ? "resume" : "pause");
  }

  function load(fig) {
    if (fig.requested) return;
    fig.requested = true;
    fig.iframe.src = fig.link ? withLink(fig.src, fig.link) : fig.src;
    keepBounded(fig);
  }

  var loadObserver = null;
  var visibilityObserver = null;
  var farObserver = null;
  if ("IntersectionObserver" in window) {
    // Start loading a little before the figure scrolls into view.
    loadObserver = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var fig = entry.target.__raftlab;
        fig.near = entry.isIntersecting;
        if (entry.isIntersecting) load(fig);
      });
    }, { rootMargin: "200px 0px" });
    farObserver = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) release(entry.target.__raftlab);
      });
    }, { rootMargin: FAR_MARGIN });
    visibilityObserver = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        setVisible(entry.target.__raftlab, entry.isIntersecting);
      });
    });
  }

  // fitNarrow keeps a figure on a narrow page tall enough for the machines and
  // the panel under them, whatever height or aspect the page asked for.
  function fitNarrow(fig, iframe) {
    var floor = fig.height ? 0 : MIN_HEIGHT;
    var width = iframe.getBoundingClientRect().width || (iframe.parentNode && iframe.parentNode.clientWidth) || 0;
    if (width > 0 && width < NARROW_WIDTH) {
      floor = Math.max(floor, Math.round(Math.min(NARROW_HEIGHT, NARROW_SHARE * window.innerHeight)));
    }
    iframe.style.minHeight = floor ? floor + "px" : "";
  }

  window.addEventListener("resize", function () {
    for (var i = 0; i < figures.length; i++) fitNarrow(figures[i], figures[i].iframe);
  });

  function mount(el) {
    if (el.__raftlab || el.hasAttribute("data-raftlab-mounted")) return;
    var fig = readFigure(el);
    el.setAttribute("data-raftlab-mounted", "");
    if (fig.error) {
      showError(el, fig.error);
      return;
    }
    var iframe = document.createElement("iframe");
    iframe.title = fig.title;
    iframe.setAttribute("allow", "fullscreen");
    iframe.style.cssText = "display:block;width:100%;border:0;border-radius:6px;background:#10151f;";
    if (fig.height) {
      iframe.style.height = fig.height + "px";
    } else if (supportsAspect) {
      iframe.style.aspectRatio = fig.aspect;
      iframe.style.height = "auto";
    } else {
      iframe.style.height = DEFAULT_HEIGHT + "px";
    }
    fig.el = el;
    fig.iframe = iframe;
    fig.visible = true; // what the app assumes until told otherwise
    fig.requested = false;
    fig.loaded = false;
    fig.listening = false;
    fig.link = "";
    fig.releases = 0;
    fig.contextLost = 0;
    fig.step = null;
    fig.waiting = {};
    fig.queue = [];
    iframe.__raftlab = fig;
    iframe.addEventListener("load", function () {
      if (!fig.requested) return; // the initial about:blank
      fig.loaded = true;
      // Tell the new document where it stands; it may have missed earlier messages.
      post(fig, fig.visible ? "resume" : "pause");
      listen(fig);
    });
    el.textContent = "";
    el.appendChild(iframe);
    fitNarrow(fig, iframe);
    figures.push(fig);

    if (loadObserver) {
      loadObserver.observe(iframe);
      visibilityObserver.observe(iframe);
      farObserver.observe(iframe);
    } else {
      load(fig);
    }
  }

  // ---- The message API: hearing a figure and driving it (docs/embedding.md) ----

  var nextID = 1;

  // listen asks the figure for its events. The app answers once it runs, seconds after the
  // page has loaded, so the question is asked again until it does.
  function listen(fig) {
    clearInterval(fig.asking);
    var ask = function () {
      if (fig.listening || !fig.loaded || !fig.iframe.contentWindow) {
        clearInterval(fig.asking);
        return;
      }
      fig.iframe.contentWindow.postMessage({ raftlab: "listen" }, appOrigin);
    };
    fig.asking = setInterval(ask, 250);
    ask();
  }

  // send posts a message that the figure answers, and returns a promise of the answer.
  function send(fig, message) {
    return new Promise(function (resolve) {
      var id = "m" + nextID++;
      message.id = id;
      fig.waiting[id] = resolve;
      fig.iframe.contentWindow.postMessage(message, appOrigin);
    });
  }

  function figureOf(source) {
    for (var i = 0; i < figures.length; i++) {
      if (figures[i].iframe.contentWindow === source) return figures[i];
    }
    return null;
  }

  window.addEventListener("message", function (ev) {
    var fig = figureOf(ev.source);
    if (!fig || (appOrigin !== "*" && ev.origin !== appOrigin)) return;
    var data = ev.data;
    if (!data || typeof data !== "object" || typeof data.raftlab !== "string") return;
    if (data.raftlab === "listening") {
      fig.listening = true;
      if (data.step) fig.step = { step: data.step, steps: data.steps, text: data.text };
      var queued = fig.queue;
      fig.queue = [];
      queued.forEach(function (q) { act(fig, q.text).then(q.resolve); });
    }
    if (data.raftlab === "event") {
      if (data.kind === "step") fig.step = { step: data.step, steps: data.steps, text: data.text };
      if (data.kind === "contextlost") fig.contextLost++;
    }
    if (data.id && fig.waiting[data.id]) {
      var resolve = fig.waiting[data.id];
      delete fig.waiting[data.id];
      resolve(data);
    }
    // The page hears everything the figure says as a "raftlab" event on the figure's div.
    fig.el.dispatchEvent(new CustomEvent("raftlab", { detail: data }));
  });

  function findFigure(target) {
    var el = typeof target === "string" ? document.getElementById(target) : target;
    for (var i = 0; i < figures.length; i++) {
      if (figures[i].el === el) return figures[i];
    }
    return null;
  }

  // act applies a directive, or several separated by ";", in order. A figure not loaded yet
  // is loaded first, and the directives wait until it listens.
  function act(fig, text) {
    if (!fig) return Promise.resolve({ raftlab: "error", error: "no raftlab figure by that id" });
    if (!fig.listening) {
      return new Promise(function (resolve) {
        fig.queue.push({ text: text, resolve: resolve });
        load(fig);
      });
    }
    var parts = String(text).split(";").map(function (t) { return t.trim(); }).filter(Boolean);
    var done = Promise.resolve({ raftlab: "done" });
    parts.forEach(function (part) {
      done = done.then(function (prev) {
        if (prev.raftlab === "error") return prev;
        return send(fig, { raftlab: "do", act: part });
      });
    });
    return done;
  }

  // mountAct makes an element with data-raftlab-act (and data-raftlab-target, the id of the
  // figure's div) drive that figure when pressed, by mouse or keyboard. The element records
  // the outcome in data-raftlab-result ("done" or "error") and an error in its title.
  function mountAct(el) {
    if (el.__raftlabAct) return;
    el.__raftlabAct = true;
    if (!el.hasAttribute("href") && el.tagName !== "BUTTON") {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
    }
    function run(ev) {
      ev.preventDefault();
      var targetID = el.getAttribute("data-raftlab-target");
      var fig = targetID ? findFigure(targetID) : (figures.length === 1 ? figures[0] : null);
      if (!fig) {
        var why = targetID ? 'no figure has id "' + targetID + '"' : "data-raftlab-target is needed on a page of several figures";
        el.setAttribute("data-raftlab-result", "error");
        el.title = why;
        if (window.console) console.error("raftlab embed:", why, el);
        return;
      }
      var r = fig.iframe.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) fig.iframe.scrollIntoView({ block: "nearest", behavior: "smooth" });
      el.setAttribute("data-raftlab-result", "pending");
      act(fig, el.getAttribute("data-raftlab-act")).then(function (answer) {
        el.setAttribute("data-raftlab-result", answer.raftlab === "error" ? "error" : "done");
        el.title = answer.raftlab === "error" ? answer.error : "";
        if (answer.raftlab === "error" && window.console) console.error("raftlab embed:", answer.error, el);
      });
    }
    el.addEventListener("click", run);
    el.addEventListener("keydown", function (ev) {
      if (el.getAttribute("role") === "button" && (ev.key === "Enter" || ev.key === " ")) run(ev);
    });
  }

  // ---- Memory: releasing figures far from the viewport ----

  function withLink(src, link) {
    var u = new URL(src);
    u.searchParams.set("link", link);
    return u.href;
  }

  function liveCount() {
    var n = 0;
    for (var i = 0; i < figures.length; i++) if (figures[i].requested) n++;
    return n;
  }

  // release asks the figure for a link to where it is, then unloads its page, which gives
  // back its memory and its WebGL context. When it comes near again, load opens the link:
  // the same run at the same moment. A figure that does not answer soon is unloaded all
  // the same and starts afresh.
  function release(fig) {
    if (!fig.requested || fig.releasing) return;
    fig.releasing = true;
    var unload = function (answer) {
      if (!fig.releasing) return;
      fig.releasing = false;
      if (answer && answer.link) {
        try { fig.link = new URL(answer.link).searchParams.get("link") || ""; } catch (e) { fig.link = ""; }
      }
      if (fig.near) return; // it came back while asked
      fig.requested = fig.loaded = fig.listening = false;
      fig.releases++;
      fig.waiting = {};
      fig.iframe.src = "about:blank";
    };
    if (fig.listening) send(fig, { raftlab: "link" }).then(unload);
    setTimeout(unload, 2000);
  }

  // keepBounded releases the loaded figures furthest from the viewport while more than
  // MAX_LIVE are loaded, so that a page of many figures never holds more WebGL contexts
  // than the browser allows.
  function keepBounded(keep) {
    var loaded = figures.filter(function (f) { return f.requested && !f.releasing && f !== keep && !f.near; });
    var over = liveCount() - MAX_LIVE;
    if (over <= 0) return;
    var middle = window.innerHeight / 2;
    loaded.sort(function (a, b) {
      var ra = a.iframe.getBoundingClientRect(), rb = b.iframe.getBoundingClientRect();
      return Math.abs(rb.top + rb.height / 2 - middle) - Math.abs(ra.top + ra.height / 2 - middle);
    });
    for (var i = 0; i < over && i < loaded.length; i++) release(loaded[i]);
  }

  function scan() {
    var els = document.querySelectorAll("div[data-raftlab]");
    for (var i = 0; i < els.length; i++) mount(els[i]);
    var links = document.querySelectorAll("[data-raftlab-act]");
    for (var j = 0; j < links.length; j++) mountAct(links[j]);
    return figures.length;
  }

  window.raftlabEmbed = {
    appURL: appURL.href,
    scan: scan,
    // State of each figure, for tests and debugging.
    figures: function () {
      return figures.map(function (f) {
        return {
          src: f.src, requested: f.requested, loaded: f.loaded, visible: f.visible,
          listening: f.listening, releases: f.releases, contextLost: f.contextLost, step: f.step,
          id: f.el.id || ""
        };
      });
    },
    // act(target, text) drives the figure whose div has id target (or the div itself) with a
    // directive such as "cut A-C"; the promise settles with the figure's answer.
    act: function (target, text) { return act(findFigure(target), text); },
    live: liveCount
  };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scan);
  } else {
    scan();
  }
})();
