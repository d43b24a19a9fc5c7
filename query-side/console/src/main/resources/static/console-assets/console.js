// The console's few behaviours beyond htmx: confirmations, select-all, charts, the cron preview and the schedule form.
(function () {
  'use strict';

  // Forms and buttons with data-confirm ask first.
  document.addEventListener('submit', function (e) {
    var text = (e.submitter && e.submitter.getAttribute('data-confirm')) || e.target.getAttribute('data-confirm');
    if (text && !window.confirm(text)) e.preventDefault();
  }, true);

  window.axSelectAll = function (box) {
    document.querySelectorAll('input[name=ids]').forEach(function (c) { c.checked = box.checked; });
  };

  function initCharts(root) {
    if (!window.echarts) return;
    (root || document).querySelectorAll('[data-chart]').forEach(function (el) {
      var data = JSON.parse(el.getAttribute('data-chart'));
      var names = (el.getAttribute('data-names') || 'succeeded,failed,timed out').split(',');
      var old = echarts.getInstanceByDom(el);
      if (old) old.dispose();
      var chart = echarts.init(el, axTheme.dark() ? 'dark' : null, { renderer: 'svg' });
      function bars(name, values, color) {
        return { name: name, type: 'bar', stack: 'all', data: values, itemStyle: { color: color }, animation: false };
      }
      chart.setOption({
        backgroundColor: 'transparent',
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        grid: { left: 40, right: 10, top: 30, bottom: 25 },
        xAxis: { type: 'category', data: data.labels },
        yAxis: { type: 'value', minInterval: 1 },
        series: [bars(names[0], data.succeeded, '#2e9d5b'), bars(names[1], data.failed, '#d64545'),
                 bars(names[2], data.timedOut, '#d89b2b')]
      });
    });
  }
  window.addEventListener('resize', function () {
    document.querySelectorAll('[data-chart]').forEach(function (el) {
      var c = window.echarts && echarts.getInstanceByDom(el);
      if (c) c.resize();
    });
  });
  document.addEventListener('DOMContentLoaded', function () { initCharts(document); axCron.check(); });
  document.addEventListener('ax-theme', function () { initCharts(document); });
  document.addEventListener('htmx:afterSwap', function (e) { initCharts(e.target); });
  // htmx's throttle drops the events of its window, the last one too: a change right after another (three jobs
  // ending together) would leave the page showing the state before it. A refresh after the last change of a burst
  // closes that gap; it comes after the throttle's window, so htmx does not drop it as well.
  var trailing = new WeakMap();
  document.addEventListener('sse:changed', function (e) {
    var el = e.target;
    if (!el || !el.hasAttribute || !el.hasAttribute('data-live-trailing')) return;
    clearTimeout(trailing.get(el));
    trailing.set(el, setTimeout(function () { htmx.trigger(el, 'ax-trailing'); }, 700));
  });
  document.addEventListener('htmx:sseOpen', function () { var l = document.getElementById('live'); if (l) l.classList.add('on'); });
  document.addEventListener('htmx:sseError', function () { var l = document.getElementById('live'); if (l) l.classList.remove('on'); });

  function field(form, name) { return form.querySelector('[name=' + name + ']'); }
  function testid(form, id) { return form.querySelector('[data-testid=' + id + ']'); }
  function problemText(body) {
    if (body && body.errors && body.errors.length)
      return body.errors.map(function (e) { return e.field + ': ' + e.message; }).join('; ');
    return (body && (body.detail || body.title)) || 'error';
  }

  // Validated as you type, by the node's own validate endpoint: description, next five fires, fires per day.
  var timer = null, seq = 0;
  // the API takes the console's session only with its CSRF token (a page of another site cannot read it)
  function csrf(headers) {
    var name = document.querySelector('meta[name="ax-csrf-header"]');
    var token = document.querySelector('meta[name="ax-csrf-token"]');
    if (name && token) headers[name.getAttribute('content')] = token.getAttribute('content');
    return headers;
  }

  // The trigger the form describes, as the schedule API takes it; datetime-local values are UTC.
  function utc(value) {
    if (!value) return null;
    return (value.length === 16 ? value + ':00' : value) + 'Z';
  }
  function kindOf(form) { return field(form, 'triggerType').value; }
  function triggerOf(form) {
    var kind = kindOf(form);
    if (kind === 'cron') {
      var zone = field(form, 'timezone').value.trim() || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      return { type: 'cron', expression: field(form, 'expression').value, timezone: zone,
               dialect: field(form, 'dialect').value };
    }
    if (kind === 'fixedRate') {
      var t = { type: 'fixedRate', intervalMs: Number(field(form, 'intervalMs').value) };
      var start = utc(field(form, 'startAt').value);
      if (start) t.startAt = start;
      return t;
    }
    if (kind === 'fixedDelay') return { type: 'fixedDelay', delayMs: Number(field(form, 'delayMs').value) };
    return { type: 'once', at: utc(field(form, 'at').value) };
  }
  function showKind(form) {
    var kind = kindOf(form);
    form.querySelectorAll('[data-kind]').forEach(function (el) {
      var on = el.getAttribute('data-kind') === kind;
      el.hidden = !on;
      el.querySelectorAll('input, select').forEach(function (i) { i.disabled = !on; });
    });
  }

  window.axCron = {
    check: function () {
      var form = document.getElementById('schedule-form');
      if (!form) return;
      showKind(form);
      clearTimeout(timer);
      testid(form, 'cron-error').textContent = form.getAttribute('data-checking-text');
      timer = setTimeout(function () { axCron.validate(form); }, 150);
    },
    // a cron expression by the node's validate endpoint; the other kinds by the console's preview, which computes
    // their fires as the schedule API does
    validate: function (form) {
      var mine = ++seq;
      var trigger = triggerOf(form);
      var cron = trigger.type === 'cron';
      var body = cron ? { expression: trigger.expression, timezone: trigger.timezone, dialect: trigger.dialect, count: 5 }
                      : trigger;
      fetch(form.getAttribute(cron ? 'data-validate' : 'data-preview'), {
        method: 'POST', headers: csrf({ 'Content-Type': 'application/json', 'Accept': 'application/json' }),
        body: JSON.stringify(body)
      }).then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
        .then(function (res) {
          if (mine !== seq) return; // a later keystroke's answer wins
          var save = testid(form, 'schedule-save');
          var preview = testid(form, 'cron-preview');
          // which trigger the preview now shows: a test (or a user) can tell it from the previous one
          preview.setAttribute('data-expression', cron ? body.expression : '');
          preview.setAttribute('data-trigger', JSON.stringify(trigger));
          var list = testid(form, 'cron-next');
          list.innerHTML = '';
          if (!res.ok) {
            form.classList.add('invalid');
            save.disabled = true;
            testid(form, 'cron-error').textContent = form.getAttribute('data-invalid-text') + ': ' + problemText(res.body);
            testid(form, 'cron-description').textContent = '';
            testid(form, 'cron-fires-per-day').textContent = '';
            testid(form, 'cron-warning').textContent = '';
            testid(form, 'cron-next-title').textContent = '';
            return;
          }
          form.classList.remove('invalid');
          save.disabled = false;
          var b = res.body;
          testid(form, 'cron-error').textContent = '';
          testid(form, 'cron-description').textContent = b.description;
          testid(form, 'cron-fires-per-day').textContent = b.firesPerDay;
          var warnAbove = Number(form.getAttribute('data-warn-above'));
          testid(form, 'cron-warning').textContent = b.firesPerDay > warnAbove
            ? form.getAttribute('data-warn-text').replace('{n}', b.firesPerDay) : '';
          testid(form, 'cron-next-title').textContent = form.getAttribute('data-fires-text').replace('{zone}', b.timezone);
          // the browser may not know a zone Java does (GMT+8): the instants are shown then, without local times
          var local = null;
          try {
            local = new Intl.DateTimeFormat('sv-SE', {
              timeZone: b.timezone, year: 'numeric', month: '2-digit', day: '2-digit',
              hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
          } catch (e) { local = null; }
          (b.nextFireTimes || []).forEach(function (t) {
            var li = document.createElement('li');
            li.setAttribute('data-testid', 'cron-next-fire');
            li.textContent = local ? local.format(new Date(t)) + '  (' + t + ')' : t;
            list.appendChild(li);
          });
        })
        .catch(function (e) { if (mine === seq) testid(form, 'cron-error').textContent = String(e); });
    }
  };

  window.axSaveSchedule = function (event) {
    event.preventDefault();
    var form = event.target;
    var errors = testid(form, 'schedule-errors');
    var params, backoff;
    try { params = JSON.parse(field(form, 'params').value || '{}'); }
    catch (e) { errors.textContent = 'params: ' + e.message; return false; }
    try { backoff = field(form, 'backoff').value.trim() ? JSON.parse(field(form, 'backoff').value) : null; }
    catch (e) { errors.textContent = 'backoff: ' + e.message; return false; }
    // every field of the job the API takes: one left out would be saved as its default
    var job = { jobType: field(form, 'jobType').value, params: params,
                priority: Number(field(form, 'priority').value || 0),
                maxRetries: Number(field(form, 'maxRetries').value), timeoutMs: Number(field(form, 'timeoutMs').value) };
    if (backoff !== null) job.backoff = backoff;
    if (field(form, 'executorApp').value.trim()) job.executorApp = field(form, 'executorApp').value.trim();
    if (field(form, 'routeStrategy').value) job.routeStrategy = field(form, 'routeStrategy').value;
    var body = {
      name: field(form, 'name').value,
      // left out when blank: the API puts it in the user's own namespace, as for any client
      namespace: field(form, 'namespace').value.trim() || undefined,
      trigger: triggerOf(form),
      job: job,
      misfirePolicy: field(form, 'misfirePolicy').value,
      overlapPolicy: field(form, 'overlapPolicy').value
    };
    fetch(form.getAttribute('data-url'), {
      method: form.getAttribute('data-method'),
      headers: csrf({ 'Content-Type': 'application/json', 'Accept': 'application/json' }),
      body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
      .then(function (res) {
        if (!res.ok) { errors.textContent = problemText(res.body); return; }
        window.location.href = form.getAttribute('data-done') + (res.body.scheduleId || form.getAttribute('data-id'));
      })
      .catch(function (e) { errors.textContent = String(e); });
    return false;
  };

  window.axTrigger = function (button) {
    if (!window.confirm(button.getAttribute('data-confirm-text'))) return;
    // a refusal (the schedule deleted or paused meanwhile, a role) is said, not hidden behind a reload
    fetch(button.getAttribute('data-trigger'), {
      method: 'POST', headers: csrf({ 'Accept': 'application/json' }) })
      .then(function (r) {
        if (r.ok) { window.location.reload(); return; }
        return r.json().then(
          function (b) { window.alert(problemText(b)); },
          function () { window.alert('HTTP ' + r.status); });
      })
      .catch(function (e) { window.alert(String(e)); });
  };
})();
