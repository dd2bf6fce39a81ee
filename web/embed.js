/*
 * raftlab embed script.
 *
 * Turns every <div data-raftlab="SCENARIO"></div> on the page into an iframe that runs the
 * raftlab app (index.html next to this script) with ?scenario=SCENARIO&embed=1 and the div's
 * other data-* attributes as URL parameters. The iframe is sized right away, loaded when it
 * comes near the viewport and told to pause when it leaves it. See docs/embedding.md.
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
    autoplay: true, theme: true, t: true, link: true
  };

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
    fig.iframe.src = fig.src;
  }

  var loadObserver = null;
  var visibilityObserver = null;
  if ("IntersectionObserver" in window) {
    // Start loading a little before the figure scrolls into view.
    loadObserver = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        loadObserver.unobserve(entry.target);
        load(entry.target.__raftlab);
      });
    }, { rootMargin: "200px 0px" });
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
    iframe.__raftlab = fig;
    iframe.addEventListener("load", function () {
      if (!fig.requested) return; // the initial about:blank
      fig.loaded = true;
      // Tell the new document where it stands; it may have missed earlier messages.
      post(fig, fig.visible ? "resume" : "pause");
    });
    el.textContent = "";
    el.appendChild(iframe);
    fitNarrow(fig, iframe);
    figures.push(fig);

    if (loadObserver) {
      loadObserver.observe(iframe);
      visibilityObserver.observe(iframe);
    } else {
      load(fig);
    }
  }

  function scan() {
    var els = document.querySelectorAll("div[data-raftlab]");
    for (var i = 0; i < els.length; i++) mount(els[i]);
    return figures.length;
  }

  window.raftlabEmbed = {
    appURL: appURL.href,
    scan: scan,
    // State of each figure, for tests and debugging.
    figures: function () {
      return figures.map(function (f) {
        return { src: f.src, requested: f.requested, loaded: f.loaded, visible: f.visible };
      });
    }
  };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scan);
  } else {
    scan();
  }
})();
