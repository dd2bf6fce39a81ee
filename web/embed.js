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
  // Figures within NEAR_PX of the viewport start loading.
  var NEAR_PX = 200;
  var MAX_LIVE = 4;

  // --- Posters ------------------------------------------------------------------------
  // A figure shows a still picture of itself (web/posters, made by `make posters`) at once,
  // before the app has loaded: its opening on screen, its key moment in print and where the
  // browser has no WebGL. data-live="click" waits for a click before loading the live figure;
  // the default swaps it in as soon as it has drawn. data-poster="open|key|none" picks the
  // picture shown on screen. A figure set to the dark theme gets the dark pictures on screen;
  // the app does not follow the reader's prefers-color-scheme, so neither do its posters.
  // Print is always the light key moment: dark ink on white paper.
  OWN.poster = true;
  OWN.live = true;
  // Parameters that leave the picture as the poster shows it; any other one (a seed, another
  // cluster size) would make the poster wrong, so such a figure has none.
  var STILL_SAFE = { speed: true, autoplay: true };
  var POSTER_MOMENTS = { open: true, key: true, none: true };
  // The themes that have posters, and the background behind each while it loads.
  var POSTER_THEMES = { light: "#f6f7f9", dark: "#10151f" };

  // readPoster reads a figure's poster attributes. Returns {error} or {screen, key, print,
  // background, live}: the poster URLs to show on screen, where there is no WebGL and in
  // print ("" for none), the colour behind them, and "ready" or "click".
  function readPoster(el, scenario) {
    var moment = el.getAttribute("data-poster");
    if (moment === null) moment = "open";
    moment = moment.trim();
    if (!POSTER_MOMENTS[moment]) {
      return { error: 'data-poster="' + moment + '" is not one of open, key or none.' };
    }
    var live = el.getAttribute("data-live");
    if (live === null) live = "ready";
    live = live.trim();
    if (live !== "ready" && live !== "click") {
      return { error: 'data-live="' + live + '" is not "ready" (swap in the live figure when it has drawn) or "click".' };
    }
    var safe = moment !== "none";
    var theme = "light";
    for (var i = 0; i < el.attributes.length && safe; i++) {
      var name = el.attributes[i].name.toLowerCase();
      if (name.indexOf("data-") !== 0) continue;
      var key = name.slice(5);
      if (OWN[key] || STILL_SAFE[key]) continue;
      var value = el.attributes[i].value.trim();
      // The app reads the theme in any case (Dark runs dark), so the poster does too.
      if (key === "theme") value = value.toLowerCase();
      if (key === "theme" && POSTER_THEMES.hasOwnProperty(value)) {
        theme = value;
        continue;
      }
      safe = false;
    }
    // The file names of cmd/posters: ID-open.svg, ID-open-dark.svg, ID-open-phone.svg,
    // ID-key-phone-dark.svg...
    var url = function (m, th, size) {
      if (!safe) return "";
      return new URL("posters/" + scenario + "-" + m + (size ? "-" + size : "") + (th === "light" ? "" : "-" + th) + ".svg", appURL).href;
    };
    return { moment: moment, theme: theme, url: url, screen: url(moment, theme, ""), print: url("key", "light", ""),
      background: POSTER_THEMES[theme], live: live };
  }

  var webGLKnown = null;
  // webGL says whether the browser can run the live figure (Ebiten needs WebGL 2). The test
  // context is lost again at once: browsers allow only a few contexts per page.
  function webGL() {
    if (webGLKnown !== null) return webGLKnown;
    webGLKnown = false;
    try {
      var gl = document.createElement("canvas").getContext("webgl2");
      if (gl) {
        webGLKnown = true;
        var lose = gl.getExtension("WEBGL_lose_context");
        if (lose) lose.loseContext();
      }
    } catch (e) { /* no WebGL */ }
    return webGLKnown;
  }

  var POSTER_CSS =
    ".raftlab-poster-box{position:relative}" +
    ".raftlab-poster{position:absolute;left:0;top:0;width:100%;height:100%;object-fit:contain;" +
    "border-radius:6px;transition:opacity .25s}" +
    ".raftlab-poster.raftlab-gone{opacity:0;pointer-events:none}" +
    ".raftlab-poster-print{display:none;width:100%;height:auto}" +
    ".raftlab-poster-play{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);" +
    "font:600 15px/1 system-ui,sans-serif;padding:10px 16px;border-radius:20px;border:0;" +
    "background:#2f6fe4;color:#fff;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.25)}" +
    ".raftlab-poster-note{position:absolute;right:8px;bottom:8px;font:12px system-ui,sans-serif;" +
    "color:#5b6475;background:rgba(255,255,255,.85);padding:2px 6px;border-radius:4px}" +
    "@media print{" +
    ".raftlab-poster-box iframe,.raftlab-poster,.raftlab-poster-play,.raftlab-poster-note{display:none!important}" +
    ".raftlab-poster-box{min-height:0!important;height:auto!important}" +
    ".raftlab-poster-print{display:block!important}" +
    ".raftlab-poster-block,.raftlab-poster-box{break-inside:avoid;page-break-inside:avoid}" +
    "}";

  function installPosterStyle() {
    if (document.getElementById("raftlab-poster-style")) return;
    var style = document.createElement("style");
    style.id = "raftlab-poster-style";
    style.textContent = POSTER_CSS;
    (document.head || document.documentElement).appendChild(style);
  }

  var PLAY_LABEL = "\u25B6 Play this figure";

  // mountPoster puts the figure's posters over its frame. Returns whether the live figure must
  // wait for a click before it loads (or never loads: no WebGL).
  function mountPoster(fig, el) {
    fig.poster = null;
    fig.live = false;
    if (!fig.posterInfo.screen) return false;
    installPosterStyle();
    el.classList.add("raftlab-poster-box");
    // Printed with its caption: the figure element around it is kept on one page.
    var block = el.closest ? el.closest("figure") : null;
    if (block) block.classList.add("raftlab-poster-block");
    var img = document.createElement("img");
    img.className = "raftlab-poster";
    img.alt = fig.title + " (still picture)";
    img.decoding = "async";
    img.style.background = fig.posterInfo.background;
    var print = document.createElement("img");
    print.className = "raftlab-poster-print";
    print.alt = fig.title + " (still picture)";
    el.appendChild(print);
    el.appendChild(img);
    fig.poster = img;
    fig.printPoster = print;
    requestPosters(fig);
    // Without its picture (a host that did not copy web/posters) the figure is as before.
    img.addEventListener("error", function () {
      img.remove();
      print.remove();
      if (fig.poster === img) fig.poster = null;
    });
    if (fig.posterInfo.live !== "click") return false;
    var play = document.createElement("button");
    play.type = "button";
    play.className = "raftlab-poster-play";
    play.textContent = PLAY_LABEL;
    var start = function () {
      play.disabled = true;
      play.textContent = "Loading\u2026";
      ask(fig);
      load(fig);
    };
    play.addEventListener("click", start);
    img.addEventListener("click", start);
    img.style.cursor = "pointer";
    el.appendChild(play);
    fig.playButton = play;
    return true;
  }

  // liveAllowed says whether fig may load its live figure: not where the browser has no
  // WebGL, where its poster (the key moment) stands in for good. It is asked only when a live
  // figure is about to start, once the posters are in: making the test context takes a while.
  function liveAllowed(fig) {
    if (webGL()) return true;
    if (fig.poster && !fig.noWebGL) {
      fig.noWebGL = true;
      fig.poster.src = keyPoster(fig);
      if (fig.playButton) fig.playButton.remove();
      fig.playButton = null; // for good: there is nothing to play
      note(fig.el, "The live figure needs WebGL, which this browser does not offer.");
    }
    return !fig.poster;
  }

  // --- When the pictures are requested ----------------------------------------------------
  // Every poster is a standalone SVG with the font inside (about 48 KB of its 55 to 72 KB), and
  // the page's main thread parses each one before it can show any, 50 ms or more each on a
  // busy machine. Requested all at once, with their print copies, a page of 17 figures kept
  // its first poster waiting for all 34 (and so did requesting the 17 screen posters first).
  // So only the screen posters of the figures near the viewport are requested at once (the
  // page's load event waits for them); the other screen posters follow after the load event,
  // nearest first and two at a time, so that the next figures are ready by the time a reader
  // scrolls to them and one coming into view never waits behind a crowd; then the print
  // copies, the same way, or all at once when the page is printed before they are in.
  var NEAR = 2; // viewport heights above and below the viewport
  // How long a live figure waits for the screen posters to load before starting all the same.
  var POSTER_WAIT = 4000; // ms
  var IN_FLIGHT = 2; // pictures requested at a time after the load event
  var pageLoaded = document.readyState === "complete";
  var later = [];   // {fig, print}: pictures waiting for the load event
  var queue = [];   // pictures to request, in order
  var inFlight = 0;

  function request(img, src) {
    if (img && src && !img.getAttribute("src")) img.src = src;
  }

  // nearNow says whether fig is within the near margin of the viewport (loadObserver's
  // 200 px) at this moment.
  function nearNow(fig) {
    var r = fig.iframe.getBoundingClientRect();
    return r.bottom > -NEAR_PX && r.top < window.innerHeight + NEAR_PX;
  }

  function distance(fig) {
    var r = fig.iframe.getBoundingClientRect();
    return Math.abs(r.top + r.height / 2 - window.innerHeight / 2);
  }

  // requestPosters requests a newly mounted figure's screen poster now if it is near the
  // viewport; the rest of its pictures wait for requestLater.
  // posterSize is the size of poster that fits the figure's box: a phone's, narrow and
  // tall, as the live figure is laid out there, or a book column's.
  function posterSize(fig) {
    var width = fig.iframe.getBoundingClientRect().width || (fig.el && fig.el.clientWidth) || 0;
    return width > 0 && width < NARROW_WIDTH ? "phone" : "";
  }

  // screenPoster and keyPoster are the figure's pictures for the screen at its size.
  function screenPoster(fig) {
    var p = fig.posterInfo;
    return p.url(p.moment, p.theme, posterSize(fig));
  }
  function keyPoster(fig) {
    var p = fig.posterInfo;
    return p.url("key", p.theme, posterSize(fig));
  }

  function requestPosters(fig) {
    var r = fig.iframe.getBoundingClientRect();
    var margin = NEAR * window.innerHeight;
    if (r.bottom > -margin && r.top < window.innerHeight + margin) {
      request(fig.poster, screenPoster(fig));
    } else {
      later.push({ fig: fig, print: false });
    }
    later.push({ fig: fig, print: true });
  }

  // requestLater queues the waiting pictures once the page has loaded: screen posters nearest
  // to the viewport first, ahead of any print copy.
  function requestLater() {
    if (!pageLoaded) return;
    var screen = later.filter(function (q) { return !q.print; });
    var print = later.filter(function (q) { return q.print; });
    later = [];
    screen.sort(function (a, b) { return distance(a.fig) - distance(b.fig); });
    queue = screen.concat(queue, print);
    pump();
  }

  // pump requests queued pictures, IN_FLIGHT at a time, each as one before it has loaded.
  function pump() {
    while (inFlight < IN_FLIGHT && queue.length) {
      var q = queue.shift();
      var img = q.print ? q.fig.printPoster : q.fig.poster;
      if (!img || !img.isConnected || img.getAttribute("src")) continue;
      inFlight++;
      var done = function () {
        inFlight--;
        setTimeout(pump, 0);
      };
      img.addEventListener("load", done, { once: true });
      img.addEventListener("error", done, { once: true });
      img.src = q.print ? q.fig.posterInfo.print : screenPoster(q.fig);
    }
  }

  window.addEventListener("load", function () {
    pageLoaded = true;
    // After the next frame, which paints the posters in view, not before: parsing the others
    // would hold that frame back.
    if (window.requestAnimationFrame) {
      requestAnimationFrame(function () { setTimeout(requestLater, 0); });
    } else {
      requestLater();
    }
  });
  window.addEventListener("beforeprint", function () {
    later.concat(queue).forEach(function (q) {
      if (q.print) request(q.fig.printPoster, q.fig.posterInfo.print);
    });
  });

  function note(el, text) {
    var n = document.createElement("div");
    n.className = "raftlab-poster-note";
    n.textContent = text;
    el.appendChild(n);
  }

  // goLive takes the poster away once the live figure has drawn its first frame.
  function goLive(fig) {
    if (fig.live) return;
    fig.live = true;
    if (fig.poster) {
      fig.poster.classList.add("raftlab-gone");
      // Out of the accessibility tree too: the live figure speaks for itself.
      fig.poster.setAttribute("aria-hidden", "true");
    }
    if (fig.playButton) fig.playButton.remove();
  }

  // The figures' titles, from the manifest `make posters` writes beside the posters
  // (posters/figures.json): fetched once, and given to every figure without data-title,
  // its frame and its pictures, so that a screen reader names a figure by its title.
  var titles = null;
  function nameFigures() {
    if (!titles) {
      titles = fetch(new URL("posters/figures.json", appURL).href).then(function (r) {
        return r.ok ? r.json() : {};
      }).catch(function () { return {}; });
    }
    titles.then(function (byID) {
      for (var i = 0; i < figures.length; i++) {
        var fig = figures[i];
        var known = byID[fig.scenario];
        if (fig.titled || !known || !known.title) continue;
        fig.title = known.title;
        fig.iframe.title = known.title;
        if (fig.poster) fig.poster.alt = known.title + " (still picture)";
        if (fig.printPoster) fig.printPoster.alt = known.title + " (still picture)";
      }
    });
  }

  window.addEventListener("message", function (ev) {
    var data = ev.data;
    if (!data || typeof data !== "object" || data.raftlab !== "ready") return;
    if (appOrigin !== "*" && ev.origin !== appOrigin) return;
    for (var i = 0; i < figures.length; i++) {
      if (figures[i].iframe.contentWindow === ev.source) goLive(figures[i]);
    }
  });

  // posterState is each figure's poster, for tests and debugging.
  function posterState() {
    return figures.map(function (f) {
      return {
        poster: f.poster ? f.poster.src : "",
        shown: !!(f.poster && f.poster.complete && f.poster.naturalWidth > 0),
        live: f.live,
        mode: f.posterInfo ? f.posterInfo.live : ""
      };
    });
  }
  // ------------------------------------------------------------------------------------

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
    // The figure's own title comes from the posters' manifest (nameFigures); until
    // then, and where the host has no posters, its id stands in.
    fig.titled = el.hasAttribute("data-title");
    fig.title = el.getAttribute("data-title") || ("raftlab figure: " + scenario);
    fig.scenario = scenario;
    fig.posterInfo = readPoster(el, scenario);
    if (fig.posterInfo.error) return { error: fig.posterInfo.error };
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
    // One that gave its place to another while near comes back when it is seen again.
    if (visible && !fig.clickToPlay && loadObserver) load(fig);
  }

  function load(fig) {
    if (fig.requested) return;
    fig.requested = true;
    keepBounded(fig);
    // The posters first: starting the app (compiling megabytes of WebAssembly, then its first
    // frame on the page's main thread) would hold back every poster not yet parsed, for
    // seconds, including those of the figures the reader is about to scroll to; so would the
    // test for WebGL, which takes seconds under a software renderer.
    request(fig.poster, fig.posterInfo && fig.posterInfo.screen && screenPoster(fig));
    var token = fig.loadToken = (fig.loadToken || 0) + 1;
    var since = Date.now();
    (function wait() {
      if (!fig.requested || fig.loadToken !== token) return;
      if (postersPending() && Date.now() - since < POSTER_WAIT) {
        setTimeout(wait, 50);
        return;
      }
      if (!liveAllowed(fig)) {
        fig.requested = false;
        return;
      }
      // Scrolled past while it waited (the observers tell a frame late): its turn goes.
      if (loadObserver && !fig.asked && !nearNow(fig)) {
        release(fig);
        return;
      }
      // No more than MAX_LIVE pages at once, counting those still being released: until one
      // is gone the poster stands in.
      if (liveCount() >= MAX_LIVE || outranked(fig)) {
        keepBounded(fig);
        setTimeout(wait, 50);
        return;
      }
      startLive(fig);
    })();
  }

  // postersPending says whether any screen poster has yet to be requested or to load.
  function postersPending() {
    for (var i = 0; i < figures.length; i++) {
      var img = figures[i].poster;
      if (img && img.isConnected && !figures[i].noWebGL && !(img.getAttribute("src") && img.complete)) return true;
    }
    return false;
  }

  function startLive(fig) {
    fig.started = true;
    fig.iframe.src = fig.link ? withLink(fig.src, fig.link) : fig.src;
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
        if (entry.isIntersecting) {
          if (!fig.clickToPlay) load(fig);
        } else if (fig.requested && !fig.started && !fig.asked) {
          // Passed before it could start: another may need the place more.
          release(fig);
        }
      });
    }, { rootMargin: NEAR_PX + "px 0px" });
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
    fig.started = false;
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
      if (!fig.started) return; // about:blank, first or after a release
      fig.loaded = true;
      // Tell the new document where it stands; it may have missed earlier messages.
      post(fig, fig.visible ? "resume" : "pause");
      listen(fig);
    });
    el.textContent = "";
    el.appendChild(iframe);
    fitNarrow(fig, iframe);
    figures.push(fig);
    nameFigures();

    // A figure that waits for a click: the poster stands in until the reader asks for the
    // live figure (or for good); it is watched all the same, to be released when far.
    fig.clickToPlay = mountPoster(fig, el);
    if (loadObserver) {
      loadObserver.observe(iframe);
      visibilityObserver.observe(iframe);
      farObserver.observe(iframe);
    } else if (!fig.clickToPlay) {
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
    ask(fig);
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

  // liveCount counts the figures whose page is loaded or loading: each holds a WebGL
  // context and tens of MB until it is unloaded, whether it is being released or not.
  function liveCount() {
    var n = 0;
    for (var i = 0; i < figures.length; i++) if (figures[i].started) n++;
    return n;
  }

  // release asks the figure for a link to where it is, then unloads its page, which gives
  // back its memory and its WebGL context. When it comes near again, load opens the link:
  // the same run at the same moment. A figure that does not answer soon is unloaded all
  // the same and starts afresh. Released to make room (evict), it goes even if near.
  function release(fig, evict) {
    if (!fig.requested || fig.releasing) return;
    if (!fig.started) {
      // Still waiting to start: there is nothing to unload.
      fig.requested = fig.asked = false;
      settlePending(fig);
      offerPlay(fig);
      return;
    }
    fig.releasing = true;
    var token = fig.releaseToken = (fig.releaseToken || 0) + 1;
    var unload = function (answer) {
      if (!fig.releasing || fig.releaseToken !== token) return;
      fig.releasing = false;
      if (answer && answer.link) {
        try { fig.link = new URL(answer.link).searchParams.get("link") || ""; } catch (e) { fig.link = ""; }
      }
      if (fig.near && !evict) return; // it came back while asked
      fig.requested = fig.loaded = fig.listening = fig.started = fig.asked = false;
      fig.releases++;
      settlePending(fig);
      fig.iframe.src = "about:blank";
      fig.live = false;
      // Its poster stands in again until the figure comes back and draws.
      if (fig.poster) {
        fig.poster.classList.remove("raftlab-gone");
        fig.poster.removeAttribute("aria-hidden");
      }
      offerPlay(fig);
      // One that gave its place while the reader sees it waits for the next free one.
      if (evict && fig.visible && !fig.clickToPlay && loadObserver) load(fig);
    };
    if (fig.listening) send(fig, { raftlab: "link" }).then(unload);
    setTimeout(unload, 2000);
  }

  // offerPlay gives a figure that waits for a click its Play button back, poster or not,
  // once its live figure is gone or was let go before it started.
  function offerPlay(fig) {
    if (!fig.playButton) return;
    fig.playButton.disabled = false;
    fig.playButton.textContent = PLAY_LABEL;
    fig.el.appendChild(fig.playButton);
  }

  // standing says how much a live figure is worth keeping when another needs its place:
  // one the reader asked for (a click, a prose link) and sees, then one in view, then one
  // near it, then the rest. A figure about to start may take the place only of one standing
  // lower than its claim, so a figure coming near never pushes out one in view, and one the
  // reader asked for can push out one they merely scrolled past, or one they asked for
  // earlier; one with directives waiting for it may push out any that has none in flight.
  var asks = 0;
  function ask(f) {
    f.asked = true;
    f.askedAt = ++asks;
  }
  function standing(f) {
    if (f.asked && f.visible) return 3;
    if (f.visible) return 2;
    return f.near ? 1 : 0;
  }
  function claim(f) {
    // Directives waiting for it to start come first of all, so that every one is answered.
    if (f.queue.length > 0) return 4;
    return f.asked ? 3 : standing(f);
  }

  // outranked says whether another figure waiting to start has a higher claim than fig: the
  // next free place is its, so that one that gave its place does not take it straight back.
  function outranked(fig) {
    var mine = claim(fig);
    for (var i = 0; i < figures.length; i++) {
      var f = figures[i];
      if (f !== fig && f.requested && !f.started && claim(f) > mine) return true;
    }
    return false;
  }

  // busy says whether fig has directives not yet answered: it keeps its place until they are.
  function busy(f) {
    return f.queue.length > 0 || Object.keys(f.waiting).length > 0;
  }

  // settlePending answers, with an error, every directive still waiting on fig when its page
  // goes or never comes: those queued until it listens and those sent and not yet answered,
  // so that a prose link never stays pending.
  function settlePending(fig) {
    var gone = { raftlab: "error", error: "the figure was released before it answered" };
    var queued = fig.queue;
    var waiting = fig.waiting;
    fig.queue = [];
    fig.waiting = {};
    queued.forEach(function (q) { q.resolve(gone); });
    Object.keys(waiting).forEach(function (id) { waiting[id](gone); });
  }

  // keepBounded makes room for keep, which is about to start: it releases the live figures
  // that stand lowest, the furthest from the viewport first, until, once they are gone, keep
  // and the rest make at most MAX_LIVE, so that a page of many figures never holds more WebGL
  // contexts, or memory, than a reader's browser can spare. A figure being released counts
  // until its page is unloaded, and no figure starts while MAX_LIVE are live (load); when
  // none stands lower than keep, keep waits, its poster shown.
  function keepBounded(keep) {
    var staying = 0;
    for (var i = 0; i < figures.length; i++) if (figures[i].started && !figures[i].releasing) staying++;
    var over = staying + (keep.started ? 0 : 1) - MAX_LIVE;
    if (over <= 0) return;
    var most = claim(keep);
    var loaded = figures.filter(function (f) {
      if (!f.started || f.releasing || f === keep || busy(f)) return false;
      return standing(f) < most || (keep.asked && f.asked && standing(f) === most && f.askedAt < keep.askedAt);
    });
    loaded.sort(function (a, b) {
      return standing(a) - standing(b) || (a.askedAt || 0) - (b.askedAt || 0) || distance(b) - distance(a);
    });
    for (var j = 0; j < over && j < loaded.length; j++) release(loaded[j], true);
  }

  function scan() {
    var els = document.querySelectorAll("div[data-raftlab]");
    for (var i = 0; i < els.length; i++) mount(els[i]);
    requestLater();
    var links = document.querySelectorAll("[data-raftlab-act]");
    for (var j = 0; j < links.length; j++) mountAct(links[j]);
    return figures.length;
  }

  window.raftlabEmbed = {
    appURL: appURL.href,
    scan: scan,
    posters: posterState,
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
