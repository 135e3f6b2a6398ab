from __future__ import annotations

from django.urls import path, re_path

from frontend.charts import views as charts
from frontend.charts.entities import ENTITY_KINDS

app_name = "charts"

urlpatterns = [
    path("history/points.json", charts.history_points, name="history-points"),
    path("history/trends.json", charts.history_trends, name="history-trends"),
    path("history/shares.json", charts.history_shares, name="history-shares"),
    path("history/shares.csv", charts.history_shares_csv, name="history-shares-csv"),
    re_path(r"^radar/(?P<release>[a-z0-9]+)/(?P<kind>[a-z0-9-]+)\.json$", charts.radar, name="radar"),
    path("submissions/<int:pk>/phases.json", charts.submission_phases, name="submission-phases"),
    path("submissions/<int:pk>/ranks.json", charts.submission_ranks, name="submission-ranks"),
    path("submissions/<int:pk>/timeline.json", charts.submission_timeline, name="submission-timeline"),
    path("systems/<int:pk>/history.json", charts.system_history, name="system-history"),
    path("systems/<int:pk>/balance.json", charts.system_balance, name="system-balance"),
    path("compare.json", charts.compare, name="compare"),
    *(
        path(
            f"{words['path']}/<slug:slug>/trends.json",
            charts.entity_trends,
            {"kind": kind},
            name=f"{kind}-trends",
        )
        for kind, words in ENTITY_KINDS.items()
    ),
]
