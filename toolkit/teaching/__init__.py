"""Teaching as data, without widgets: "Learn to play" lessons (scripted steps on real engine positions) and
checked exercises drawn from seeds. Every right answer and every refusal comes from the engines."""

from toolkit.teaching.lesson import (AnswerError, Choice, Goal, Lesson, Question, Scenario, Step, Verdict,
                                     check_answer, check_move, right_answer)

__all__ = ["AnswerError", "Choice", "Goal", "Lesson", "Question", "Scenario", "Step", "Verdict", "check_answer",
           "check_move", "right_answer"]
