// Runs in <head> so the page is painted in the chosen theme at once. "auto" follows prefers-color-scheme.
window.axTheme = {
  get: function () { try { return localStorage.getItem('ax-theme') || 'auto'; } catch (e) { return 'auto'; } },
  apply: function (t) {
    if (t === 'auto') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', t);
  },
  dark: function () {
    var t = this.get();
    return t === 'dark' || (t === 'auto' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  },
  toggle: function () {
    var next = this.dark() ? 'light' : 'dark';
    try { localStorage.setItem('ax-theme', next); } catch (e) { /* private mode: this page only */ }
    this.apply(next);
    document.dispatchEvent(new Event('ax-theme'));
  }
};
axTheme.apply(axTheme.get());
