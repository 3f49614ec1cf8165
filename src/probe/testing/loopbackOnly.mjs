// Preloaded (node --import) into a server the tests did not write, so that a server which listens
// on a bare port (every interface) listens on the loopback address only: the tests stay on 127.0.0.1.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [port, ...rest] = args;
  if (typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port))) {
    const callback = rest.find((arg) => typeof arg === 'function');
    return listen.call(this, Number(port), '127.0.0.1', callback);
  }
  return listen.apply(this, args);
};
