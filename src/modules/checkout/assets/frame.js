// Inside the elements iframe: pays with fetch and reports to the parent page (only to the origin it named).
(() => {
  var form = document.getElementById('pay');
  if (!form) return;
  var parentOrigin = form.getAttribute('data-parent');
  var token = form.getAttribute('data-frame-token');
  function post(event, data) {
    if (window.parent !== window)
      window.parent.postMessage({ tessera: true, event: event, data: data || {} }, parentOrigin);
  }
  function resize() {
    post('resize', { height: document.documentElement.scrollHeight });
  }
  function method() {
    var chosen = form.querySelector('input[name=method]:checked') || form.querySelector('input[name=method]');
    return chosen ? chosen.value : 'card';
  }
  function show() {
    var m = method();
    form.querySelectorAll('[data-method]').forEach((section) => {
      var on = section.getAttribute('data-method').split(' ').indexOf(m) >= 0;
      section.classList.toggle('hidden', !on);
      section.querySelectorAll('input,select').forEach((input) => {
        input.disabled = !on;
      });
    });
    resize();
  }
  function values() {
    var out = {};
    new FormData(form).forEach((value, key) => {
      out[key] = String(value);
    });
    return out;
  }
  function clearErrors() {
    form.querySelectorAll('.error').forEach((e) => {
      e.remove();
    });
    form.querySelectorAll('[aria-invalid]').forEach((e) => {
      e.removeAttribute('aria-invalid');
      e.removeAttribute('aria-describedby');
    });
    var alert = document.getElementById('frame-alert');
    alert.textContent = '';
    alert.classList.add('hidden');
  }
  function showErrors(errors, message) {
    var first = null;
    Object.keys(errors || {}).forEach((name) => {
      var input = document.getElementById(name);
      if (!input) return;
      var p = document.createElement('p');
      p.className = 'error';
      p.id = name + '-error';
      p.textContent = errors[name][0];
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', p.id);
      (input.type === 'checkbox' ? input.parentNode : input).insertAdjacentElement('afterend', p);
      first = first || input;
    });
    var alert = document.getElementById('frame-alert');
    if (message) {
      alert.textContent = message;
      alert.classList.remove('hidden');
    }
    if (first) first.focus();
    resize();
  }
  form.querySelectorAll('input[name=method]').forEach((r) => {
    r.addEventListener('change', show);
  });
  form.addEventListener('input', () => {
    var v = values();
    var filled = form.querySelectorAll('input:not([type=hidden]):not([disabled])');
    var empty = true;
    filled.forEach((i) => {
      if (i.value && i.type !== 'radio' && i.type !== 'checkbox') empty = false;
    });
    post('change', { method: v.method || method(), empty: empty });
  });
  var busy = false;
  var button = form.querySelector('button[type=submit]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    button.disabled = true;
    clearErrors();
    fetch(form.getAttribute('data-pay'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tessera-frame': token },
      body: JSON.stringify(values()),
      credentials: 'omit',
    })
      .then((r) => r.json())
      .then((result) => {
        if (result.status === 'completed') {
          form.innerHTML =
            '<div class="alert ok" role="status">' +
            (result.mode === 'SaveMethod' ? 'Payment method saved.' : 'Payment complete.') +
            '</div>';
          resize();
          post('complete', {
            paymentSessionId: result.paymentSessionId,
            status: 'Completed',
            transactionId: result.transactionId,
            vaultedPaymentMethodId: result.vaultedPaymentMethodId,
          });
          return;
        }
        if (result.status === 'ended') {
          form.innerHTML = '<div class="alert" role="status">' + 'This payment is no longer available.' + '</div>';
          resize();
        } else showErrors(result.errors, result.message);
        post('error', {
          code: result.status,
          message: result.message || 'Please correct the marked fields.',
          fields: Object.keys(result.errors || {}),
        });
      })
      .catch(() => {
        showErrors({}, 'The payment could not be sent. Check your connection and try again.');
        post('error', { code: 'network', message: 'The payment could not be sent.', fields: [] });
      })
      .then(() => {
        busy = false;
        if (button) button.disabled = false;
      });
  });
  window.addEventListener('message', (event) => {
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    if (event.data && event.data.tessera === true && event.data.action === 'submit') form.requestSubmit();
  });
  show();
  post('ready', { methods: Array.prototype.map.call(form.querySelectorAll('input[name=method]'), (r) => r.value) });
})();
