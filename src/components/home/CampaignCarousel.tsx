import { useEffect, useRef } from 'react';
import Swiper from 'swiper';
import { Navigation, Pagination } from 'swiper/modules';
import 'swiper/css';
import 'swiper/css/navigation';
import 'swiper/css/pagination';

/** Only what a slide shows, so the island's serialized props stay small. */
export type CarouselSlide = {
  href: string;
  title: string;
  description: string;
  image: string | null;
  raised: string;
  goal: string;
  percent: string;
};

/**
 * Home page campaign carousel (spec section 9): three per view on wide screens, dots and arrows.
 * Swiper core on server-rendered markup (not swiper/react) with our own buttons for arrows and
 * dots, which keeps the island small and keyboard-accessible without Swiper's a11y module.
 */
export default function CampaignCarousel({ slides, label }: { slides: CarouselSlide[]; label: string }) {
  const root = useRef<HTMLDivElement>(null);
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const dots = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!root.current) return;
    const swiper = new Swiper(root.current, {
      modules: [Navigation, Pagination],
      spaceBetween: 24,
      slidesPerView: 1,
      breakpoints: { 640: { slidesPerView: 2 }, 1024: { slidesPerView: 3 } },
      watchSlidesProgress: true,
      navigation: { prevEl: prev.current, nextEl: next.current },
      pagination: {
        el: dots.current,
        clickable: true,
        renderBullet: (index, className) =>
          `<button type="button" class="${className}" aria-label="Go to slide ${index + 1}"></button>`,
      },
    });
    // Only slides in view stay in the tab order.
    const syncFocus = () =>
      swiper.slides.forEach((slide) => {
        const visible = slide.classList.contains('swiper-slide-visible');
        slide.querySelectorAll('a').forEach((a) => (visible ? a.removeAttribute('tabindex') : a.setAttribute('tabindex', '-1')));
        slide.setAttribute('aria-hidden', visible ? 'false' : 'true');
      });
    swiper.on('slideChangeTransitionEnd', syncFocus);
    swiper.on('resize', syncFocus);
    syncFocus();
    return () => {
      swiper.destroy(true, true);
    };
  }, []);

  return (
    <div className="campaign-carousel" role="region" aria-roledescription="carousel" aria-label={label}>
      <div className="swiper" ref={root}>
        <ul className="swiper-wrapper">
          {slides.map((slide, i) => (
            <li className="swiper-slide" key={slide.href} aria-label={`${i + 1} of ${slides.length}`} aria-roledescription="slide">
              <article className="card">
                <div className="card-media">
                  {slide.image && <img src={slide.image} alt="" width={600} height={400} loading="lazy" decoding="async" />}
                </div>
                <div className="card-body">
                  <h3 className="card-title">
                    <a href={slide.href}>{slide.title}</a>
                  </h3>
                  <p className="card-desc">{slide.description}</p>
                  <p className="card-raised">
                    <strong>{slide.raised}</strong> raised of {slide.goal}
                  </p>
                  <div
                    className="progress"
                    role="progressbar"
                    aria-label={`${slide.title}: ${slide.percent}% of goal raised`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.min(100, Number(slide.percent))}
                  >
                    <span style={{ width: `${Math.min(100, Number(slide.percent))}%` }} />
                  </div>
                  <p className="card-percent">{slide.percent}%</p>
                </div>
              </article>
            </li>
          ))}
        </ul>
        <button type="button" className="swiper-button-prev" ref={prev} aria-label="Previous campaigns" />
        <button type="button" className="swiper-button-next" ref={next} aria-label="Next campaigns" />
        <div className="swiper-pagination" ref={dots} />
      </div>
    </div>
  );
}
