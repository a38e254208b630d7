// Draws the last minutes of every pipeline (overview) or of one table (its page) with uPlot from the
// server's history, and refreshes them every 2 s.
(function () {
  'use strict';

  var REFRESH_MILLIS = 2000;
  var charts = {};

  function bytes(value) {
    if (value == null) { return ''; }
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    var unit = 0;
    while (Math.abs(value) >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
    return (unit === 0 ? value.toFixed(0) : value.toFixed(1)) + ' ' + units[unit];
  }

  function count(value) {
    return value == null ? '' : Math.round(value).toLocaleString('en-US');
  }

  // Lag below a second reads in milliseconds, so the axis of an idle pipeline does not repeat "0 s".
  function seconds(value) {
    if (value == null) { return ''; }
    if (Math.abs(value) < 1000) { return Math.round(value).toLocaleString('en-US') + ' ms'; }
    return (value / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 }) + ' s';
  }

  function twoDigits(value) {
    return (value < 10 ? '0' : '') + value;
  }

  // The time axis reads hours and minutes of the browser's clock, with seconds only when a tick
  // falls inside a minute. uPlot's own labels add the date under the first tick, which a narrow
  // chart draws over the label next to it; the history covers minutes, never days.
  function clock(u, ticks) {
    var withSeconds = ticks.some(function (t) { return Math.round(t) % 60 !== 0; });
    return ticks.map(function (t) {
      var at = new Date(t * 1000);
      var text = twoDigits(at.getHours()) + ':' + twoDigits(at.getMinutes());
      return withSeconds ? text + ':' + twoDigits(at.getSeconds()) : text;
    });
  }

  var PALETTE = ['#175cd3', '#b54708', '#067647', '#6941c6', '#c11574', '#0e9384', '#475467'];

  // Each chart: its title, how its values read, and its series from one pipeline's history.
  var KINDS = [
    { key: 'lag', title: 'Lag', format: seconds,
      series: function (p) { return [{ label: 'lag', values: p.lagMillis }]; } },
    { key: 'events', title: 'Events/s', format: count,
      series: function (p) { return [{ label: 'events/s', values: p.eventsPerSecond }]; } },
    { key: 'applied', title: 'Changes applied/s, all tables and the busiest', format: count,
      series: function (p) {
        return [{ label: 'all tables', values: p.changesAppliedPerSecond }].concat(p.tables.map(function (t) {
          return { label: t.name, values: t.changesAppliedPerSecond };
        }));
      } },
    { key: 'buffered', title: 'Buffered bytes, all tables and the busiest', format: bytes,
      series: function (p) {
        return [{ label: 'all tables', values: p.bufferedBytes }].concat(p.tables.map(function (t) {
          return { label: t.name, values: t.bufferedBytes };
        }));
      } }
  ];

  function options(kind, series, width) {
    return {
      width: width,
      height: 160,
      legend: { live: true },
      scales: { x: { time: true }, y: { range: function (u, min, max) { return [0, Math.max(max || 0, 10)]; } } },
      axes: [{ space: 70, values: clock }, { size: 70, values: function (u, ticks) { return ticks.map(kind.format); } }],
      series: [{}].concat(series.map(function (s, i) {
        return { label: s.label, stroke: PALETTE[i % PALETTE.length], width: i === 0 ? 2 : 1,
          value: function (u, v) { return kind.format(v); } };
      }))
    };
  }

  function group(container, pipeline) {
    var id = 'history-' + pipeline.name;
    var element = document.getElementById(id);
    if (element) { return element; }
    element = document.createElement('div');
    element.id = id;
    element.className = 'chart-group';
    var title = document.createElement('h3');
    title.textContent = 'Pipeline ' + pipeline.name;
    element.appendChild(title);
    var row = document.createElement('div');
    row.className = 'chart-row';
    KINDS.forEach(function (kind) {
      var chart = document.createElement('div');
      chart.className = 'chart';
      chart.setAttribute('data-chart', kind.key);
      var caption = document.createElement('div');
      caption.className = 'chart-title';
      caption.textContent = kind.title;
      chart.appendChild(caption);
      row.appendChild(chart);
    });
    element.appendChild(row);
    container.appendChild(element);
    return element;
  }

  function draw(container, history) {
    var empty = document.getElementById('charts-empty');
    if (empty) { empty.hidden = history.pipelines.length > 0; }
    history.pipelines.forEach(function (pipeline) {
      var element = group(container, pipeline);
      var times = pipeline.times.map(function (t) { return t / 1000; });
      KINDS.forEach(function (kind) {
        var series = kind.series(pipeline);
        var data = [times].concat(series.map(function (s) { return s.values; }));
        var key = pipeline.name + '/' + kind.key;
        var existing = charts[key];
        if (existing && existing.series.length === data.length) {
          existing.setData(data);
          return;
        }
        if (existing) { existing.destroy(); }
        var target = element.querySelector('[data-chart="' + kind.key + '"]');
        charts[key] = new uPlot(options(kind, series, Math.max(target.clientWidth, 320)), data, target);
      });
    });
  }

  function fraction(value) {
    return value == null ? '' : value.toLocaleString('en-US', { maximumFractionDigits: 1 });
  }

  // The charts of one table's page, each drawn into the element of its key.
  var TABLE_KINDS = [
    { key: 'applied', format: count,
      series: function (t) { return [{ label: 'changes/s', values: t.changesAppliedPerSecond }]; } },
    { key: 'buffered', format: bytes,
      series: function (t) { return [{ label: 'buffered', values: t.bufferedBytes }]; } },
    { key: 'concurrency', format: count,
      series: function (t) { return [{ label: 'statements at once', values: t.applyConcurrency }]; } },
    { key: 'contention', format: fraction,
      series: function (t) { return [{ label: 'contention/s', values: t.contentionEventsPerSecond }]; } }
  ];

  function drawTable(container, history) {
    var empty = document.getElementById('charts-empty');
    if (empty) { empty.hidden = history.times.length > 0; }
    var times = history.times.map(function (t) { return t / 1000; });
    TABLE_KINDS.forEach(function (kind) {
      var series = kind.series(history);
      var data = [times].concat(series.map(function (s) { return s.values; }));
      var existing = charts['table/' + kind.key];
      if (existing) {
        existing.setData(data);
        return;
      }
      var target = container.querySelector('[data-chart="' + kind.key + '"]');
      charts['table/' + kind.key] = new uPlot(options(kind, series, Math.max(target.clientWidth, 280)), data, target);
    });
  }

  function refresh(url, drawInto) {
    fetch(url, { headers: { Accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (history) { if (history) { drawInto(history); } })
      .catch(function () { /* The next refresh tries again. */ });
  }

  function every(url, drawInto) {
    refresh(url, drawInto);
    setInterval(function () { refresh(url, drawInto); }, REFRESH_MILLIS);
  }

  // The overview's filter is a query parameter, so that the page, its polls and its links keep it:
  // Enter in the box loads the overview filtered, from its first page.
  function filterBox() {
    var box = document.getElementById('table-filter');
    if (!box) { return; }
    box.addEventListener('keydown', function (event) {
      if (event.key !== 'Enter') { return; }
      event.preventDefault();
      var text = box.value.trim();
      window.location.assign(box.getAttribute('data-overview') + (text ? '?q=' + encodeURIComponent(text) : ''));
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    filterBox();
    if (typeof uPlot === 'undefined') { return; }
    var overview = document.getElementById('charts');
    if (overview) {
      every(overview.getAttribute('data-history'), function (history) { draw(overview, history); });
    }
    var table = document.getElementById('table-charts');
    if (table) {
      every(table.getAttribute('data-table-history'), function (history) { drawTable(table, history); });
    }
  });
})();
