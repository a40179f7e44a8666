/** The popups' styles, shipped with the engine's chunk (no page without a popup pays for them). */
export const POPUP_CSS = `
.shop-popup-modal{position:fixed;inset:0;z-index:10000;display:flex;align-items:center;justify-content:center;padding:56px 16px 16px;background:rgba(28,25,23,.55);overflow-y:auto}
.shop-popup{position:relative;width:100%;background:var(--paper,#fff);color:var(--ink,#1c1917);border-radius:var(--radius,10px);box-shadow:0 20px 50px rgba(0,0,0,.3);animation-fill-mode:both;animation-timing-function:ease-out;margin:auto}
.shop-popup:focus{outline:3px solid var(--brand,#9f1239);outline-offset:2px}
.shop-popup-body{padding:32px 28px 24px}
.shop-popup-body h2{margin:0 0 12px;font-size:1.5rem;line-height:1.25;padding-right:24px}
.shop-popup-body p{margin:0 0 12px}
.shop-popup-body img{max-width:100%;height:auto;display:block;margin:0 0 12px}
.shop-popup-actions{display:flex;flex-wrap:wrap;align-items:center;gap:12px 20px;margin-top:20px!important}
.shop-popup-signup{display:flex;flex-wrap:wrap;align-items:flex-end;gap:8px 12px;margin:16px 0 0}
.shop-popup-signup label{flex:1 0 100%;font-weight:600}
.shop-popup-signup input[type=email]{flex:1 1 200px;min-height:44px;padding:8px 12px;font:inherit;border:1px solid var(--muted,#57534e);border-radius:6px}
.shop-popup-signup .button{min-height:44px}
.shop-popup-dismiss{color:var(--muted,#57534e)}
.shop-popup-close{position:absolute;width:44px;height:44px;border:0;border-radius:50%;font-size:28px;line-height:1;cursor:pointer;display:flex;align-items:center;justify-content:center}
.shop-popup-close[hidden]{display:none}
.shop-popup-close--inside{top:6px;right:6px;background:transparent;color:var(--ink,#1c1917)}
.shop-popup-close--outside{top:-50px;right:0;background:var(--paper,#fff);color:var(--ink,#1c1917)}
.shop-popup-close:focus-visible{outline:3px solid var(--brand,#9f1239);outline-offset:2px}
html.shop-popup-no-scroll,html.shop-popup-no-scroll body{overflow:hidden}
.shop-popup-anim-fadeIn{animation-name:shop-popup-fade-in}
.shop-popup-anim-fadeOut{animation-name:shop-popup-fade-out}
.shop-popup-anim-zoomIn{animation-name:shop-popup-zoom-in}
.shop-popup-anim-zoomOut{animation-name:shop-popup-zoom-out}
.shop-popup-anim-slideInUp{animation-name:shop-popup-slide-in-up}
.shop-popup-anim-slideOutDown{animation-name:shop-popup-slide-out-down}
.shop-popup-anim-slideInDown{animation-name:shop-popup-slide-in-down}
.shop-popup-anim-slideOutUp{animation-name:shop-popup-slide-out-up}
.shop-popup-modal.is-leaving{background:transparent;transition:background .2s}
@keyframes shop-popup-fade-in{from{opacity:0}to{opacity:1}}
@keyframes shop-popup-fade-out{from{opacity:1}to{opacity:0}}
@keyframes shop-popup-zoom-in{from{opacity:0;transform:scale(.85)}to{opacity:1;transform:none}}
@keyframes shop-popup-zoom-out{from{opacity:1;transform:none}to{opacity:0;transform:scale(.85)}}
@keyframes shop-popup-slide-in-up{from{opacity:0;transform:translateY(40px)}to{opacity:1;transform:none}}
@keyframes shop-popup-slide-out-down{from{opacity:1;transform:none}to{opacity:0;transform:translateY(40px)}}
@keyframes shop-popup-slide-in-down{from{opacity:0;transform:translateY(-40px)}to{opacity:1;transform:none}}
@keyframes shop-popup-slide-out-up{from{opacity:1;transform:none}to{opacity:0;transform:translateY(-40px)}}
@media (prefers-reduced-motion:reduce){.shop-popup{animation:none!important}.shop-popup-modal.is-leaving{transition:none}}
`;
