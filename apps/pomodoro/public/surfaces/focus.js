// Pomodoro's focus card: a Surface an agent opens by reference. It shows the state the agent gives it
// ({ minutes, label, lang }) and sends the user's intent as the two events the manifest declares: start
// (with the minutes) and stop. It runs as a classic script after its HTML, with no network and no app API.
(() => {
  var TEXTS = {
    en: { title: 'Focus session', minutes: 'min', start: 'Start', stop: 'Stop' },
    zh: { title: '专注时段', minutes: '分钟', start: '开始', stop: '停止' },
  };
  var minutes = 25;
  function field(name) {
    return document.querySelector('[data-field="' + name + '"]');
  }
  function render(state) {
    var lang = typeof state.lang === 'string' && state.lang.toLowerCase().indexOf('zh') === 0 ? 'zh' : 'en';
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    var texts = TEXTS[lang];
    document.querySelectorAll('[data-text]').forEach((element) => {
      element.textContent = texts[element.getAttribute('data-text')];
    });
    if (typeof state.minutes === 'number' && state.minutes >= 1 && state.minutes <= 180)
      minutes = Math.floor(state.minutes);
    field('minutes').textContent = String(minutes);
    field('label').textContent = typeof state.label === 'string' ? state.label.slice(0, 64) : '';
    LineUpSurface.resize(Math.ceil(document.body.getBoundingClientRect().height));
  }
  document.querySelector('[data-action="start"]').addEventListener('click', () => {
    LineUpSurface.event('start', { minutes: minutes });
  });
  document.querySelector('[data-action="stop"]').addEventListener('click', () => {
    LineUpSurface.event('stop', {});
  });
  LineUpSurface.onState(render);
})();
