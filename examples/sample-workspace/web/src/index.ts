import { add, Counter } from "./util";
import * as math from "@util/math";

const counter = new Counter();
counter.increment();
console.log(add(1, 2), math.add(3, 4));
