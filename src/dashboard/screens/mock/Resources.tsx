import { RESOURCES } from '../../mock-data';
import { Icon } from '../../ui/icons';

export function Resources() {
  return (
    <section className="dash-section">
      <h1>Resources</h1>
      <ul className="dash-resource-list">
        {RESOURCES.map((r) => (
          <li key={r.href} className="dash-resource">
            <Icon name="book" size={28} />
            <div className="dash-stack dash-grow">
              <strong>{r.title}</strong>
              <span className="dash-muted">{r.description}</span>
            </div>
            <a className="btn btn-outline dash-btn-sm" href={r.href} download>
              <Icon name="download" size={16} /> Download<span className="visually-hidden"> {r.title}</span> ({r.size})
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
