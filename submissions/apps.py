from django.apps import AppConfig
from django.db.models.signals import post_migrate


class SubmissionsConfig(AppConfig):
    name = "submissions"
    verbose_name = "Submissions"

    def ready(self) -> None:
        from submissions.review.roles import ensure_committee_group_after_migrate

        # Permissions exist only after migrate (post_migrate creates them), hence the same signal.
        post_migrate.connect(ensure_committee_group_after_migrate, sender=self)
