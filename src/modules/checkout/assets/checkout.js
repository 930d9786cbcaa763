// The checkout page works without this script; it only helps: it shows the chosen method's fields, groups the card
// number, and keeps a second click from sending the form twice (the server charges once either way).
(() => {
  var form = document.getElementById('pay');
  if (!form) return;
  var radios = form.querySelectorAll('input[name=method]');
  function show() {
    var chosen = form.querySelector('input[name=method]:checked');
    var method = chosen ? chosen.value : '';
    form.querySelectorAll('[data-method]').forEach((section) => {
      var on = !method || section.getAttribute('data-method').split(' ').indexOf(method) >= 0;
      section.classList.toggle('hidden', !on);
      section.querySelectorAll('input,select').forEach((input) => {
        input.disabled = !on;
      });
    });
  }
  radios.forEach((radio) => {
    radio.addEventListener('change', show);
  });
  show();
  var number = form.querySelector('#cardNumber');
  if (number) {
    number.addEventListener('input', () => {
      var digits = number.value.replace(/\D/g, '').slice(0, 19);
      var grouped = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
      if (grouped !== number.value) number.value = grouped;
    });
  }
  var sent = false;
  form.addEventListener('submit', (event) => {
    if (sent) {
      event.preventDefault();
      return;
    }
    sent = true;
    var button = form.querySelector('button[type=submit]');
    if (button) {
      button.disabled = true;
      button.textContent = button.getAttribute('data-busy') || 'Processing…';
    }
  });
  var first = document.querySelector('[aria-invalid=true]');
  if (first) first.focus();
})();
