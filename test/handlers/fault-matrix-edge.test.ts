/** Every fault class on the create of the edge's resource types (test/helpers/fault-matrix.ts says what each must do). */
import { faultMatrix } from "../helpers/fault-matrix";

faultMatrix("edge");
