// The page's language (app/i18n): <html lang> for screen readers and fonts, and the switch to the
// other language keeps the moment the page shows (its query: tab, chapter, step, example, knobs).
(function () {
  function pageLang() {
    var a = document.querySelector("a.lang-switch");
    return a ? a.dataset.pageLang : (/\/zh\/?$/.test(location.pathname) ? "zh" : "en");
  }
  function sync() {
    var lang = pageLang();
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    var a = document.querySelector("a.lang-switch");
    if (!a) return;
    var q = new URLSearchParams(location.search);
    q.set("lang", a.dataset.lang);
    var base = location.pathname.replace(/\/zh\/?$/, "/").replace(/\/+$/, "/");
    a.href = base + a.dataset.path + "?" + q.toString() + location.hash;
  }
  // Gradio's own words (an upload box, "Error") follow the page too: its HTML says the page's
  // language to Gradio before Gradio starts (app/serving/language.py, with_language).
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("a.lang-switch")) sync();
  }, true);
  var watch = new MutationObserver(function () {  // once, when Gradio has drawn the header
    if (document.querySelector("a.lang-switch")) {
      sync(); watch.disconnect();
    }
  });
  watch.observe(document.documentElement, {childList: true, subtree: true});
  window.wedlmLang = pageLang;
})();
