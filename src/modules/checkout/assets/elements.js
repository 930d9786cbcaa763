/*
 * Tessera hosted payment elements. Include this script from your Tessera server, then:
 *
 *   var elements = TesseraElements({ sessionId: '<payment session id>' });
 *   elements.on('ready', fn).on('change', fn).on('error', fn).on('complete', fn);
 *   elements.mount('#payment');      // the fields render in an iframe served by Tessera
 *   elements.submit();               // optional: pay from your own button
 *
 * Card and bank data are typed into the iframe and go straight to Tessera: your page never sees them. Events come
 * through postMessage and are accepted only from the Tessera origin and from this iframe.
 */
(() => {
  var script = document.currentScript;
  var origin = new URL(script.src).origin;
  var EVENTS = ['ready', 'change', 'error', 'complete'];

  function Elements(options) {
    if (!options || !/^[0-9a-f-]{36}$/i.test(options.sessionId || '')) {
      throw new Error('TesseraElements: options.sessionId must be a payment session id');
    }
    this.sessionId = options.sessionId;
    this.listeners = {};
    this.frame = null;
    this.onMessage = this.receive.bind(this);
  }

  Elements.prototype.on = function (type, listener) {
    if (EVENTS.indexOf(type) < 0) throw new Error('TesseraElements: unknown event ' + type);
    if (!this.listeners[type]) this.listeners[type] = [];
    this.listeners[type].push(listener);
    return this;
  };

  Elements.prototype.mount = function (target) {
    var container = typeof target === 'string' ? document.querySelector(target) : target;
    if (!container) throw new Error('TesseraElements: nothing to mount into');
    var frame = document.createElement('iframe');
    frame.src = origin + '/elements/v1/frame/' + this.sessionId + '?parent=' + encodeURIComponent(location.origin);
    frame.title = 'Secure payment form';
    frame.setAttribute('allow', 'payment');
    frame.style.cssText = 'width:100%;border:0;min-height:320px;display:block';
    this.frame = frame;
    window.addEventListener('message', this.onMessage);
    container.appendChild(frame);
    return this;
  };

  Elements.prototype.submit = function () {
    if (this.frame) this.frame.contentWindow.postMessage({ tessera: true, action: 'submit' }, origin);
  };

  Elements.prototype.destroy = function () {
    window.removeEventListener('message', this.onMessage);
    if (this.frame && this.frame.parentNode) this.frame.parentNode.removeChild(this.frame);
    this.frame = null;
  };

  Elements.prototype.receive = function (event) {
    if (event.origin !== origin || !this.frame || event.source !== this.frame.contentWindow) return;
    var message = event.data;
    if (!message || message.tessera !== true) return;
    if (message.event === 'resize') {
      this.frame.style.height = Math.ceil(message.data.height) + 'px';
      return;
    }
    (this.listeners[message.event] || []).forEach((listener) => {
      listener(message.data);
    });
  };

  window.TesseraElements = (options) => new Elements(options);
})();
